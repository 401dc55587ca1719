"""wide-primary-key: a wide clustered key, copied into every secondary index entry.

InnoDB's secondary index records hold the clustered key's columns (the primary key, else the
UNIQUE key the table is clustered on) so that a lookup can go on to the row. A 1,022-byte
VARCHAR(255) utf8mb4 key is carried by every entry of every secondary index, where a BIGINT
would take 8 bytes: larger indexes, fewer entries per page, deeper trees, more buffer pool. The
width is computed for the table's character sets on the target (linter.schema.innodb_sizes).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from linter.rules.uuid_keys import uuid_key
from linter.rules.copies import judged_once
from linter.rules.checkapi import Check, CheckContext, RuleDoc, TableStats, latest_place, qualified, quote
from linter.rules.findings import Finding
from linter.rules.options import Integer
from linter.input.migrations.orm_evidence import KeyEvidence
from linter.schema.innodb_sizes import KeyWidth
from linter.schema.key_copies import Copies, copies
from linter.parse.elements import Column, Index, Location
from linter.schema.entities import EntityIndex, entity_index, name_tokens
from linter.schema.links import link_identity
from linter.schema.model import SchemaModel, Table
from linter.schema.target import Target

RULE = "wide-primary-key"
DEFAULT_MAX_KEY_BYTES = 100
#: the clustered key of a table InnoDB clusters on its hidden row id: DB_ROW_ID, 6 bytes
ROW_ID_BYTES = 6


#: the types a generator's text values are stored in (what uuid-primary-key reads as a UUID column)
_TEXT_OR_BYTES = frozenset({"CHAR", "VARCHAR", "BINARY", "VARBINARY"})


def names_a_table(table: Table, column: str, entities: EntityIndex) -> bool:
    """Whether a column is named after another table of the input (`user_id`, `RoleId`,
    `id_role`), as link-table-primary-key reads names."""
    tokens = list(name_tokens(column))
    if len(tokens) < 2 or "id" not in (tokens[0], tokens[-1]):
        return False
    words = tokens[:-1] if tokens[-1] == "id" else tokens[1:]
    return entities.resolve(words, column, table, whole=True) is not None


def clustered_by_parent(table: Table, key: Index, entities: EntityIndex) -> bool:
    """Whether a composite clustered key starts with a reference (a foreign key's columns, or a
    column named after another table): a child table clustered by its parent, one parent's rows
    together, as uuid-primary-key also leaves them. A surrogate key would scatter those rows. (A
    link table clustered on its pair is the model's answer: `linter.schema.links.link_identity`.)"""
    if len(key.columns) < 2 or any(p.expression for p in key.columns):
        return False
    columns = [p.name.lower() for p in key.columns]
    inside = [fk for fk in table.foreign_keys if fk.columns and {c.lower() for c in fk.columns} <= set(columns)]
    leading = any([c.lower() for c in fk.columns] == columns[: len(fk.columns)] for fk in inside)
    return leading or names_a_table(table, columns[0], entities)


def said_about(table: Table, key: Index, context: CheckContext) -> KeyEvidence | None:
    """What the application's model file says fills this key, when it names its columns."""
    evidence = context.app_evidence.key(table) if context.app_evidence is not None else None
    if evidence is None or [c.lower() for c in evidence.columns] != [c.lower() for c in key.column_names]:
        return None
    return evidence


def random_uuid_key(table: Table, key: Index, context: CheckContext, said: KeyEvidence | None = None) -> bool:
    """Whether uuid-primary-key flags this key (random UUIDs leading it, as that rule reads them,
    or random values the application's model says it makes in a text or binary column): its finding
    already gives the size of the copies and the same fix, so this rule stays quiet."""
    first = key.columns[0] if key.columns else None
    column = table.column(first.name) if first is not None and not first.expression else None
    if column is None or column.auto_increment:
        return False
    if said is not None and said.ordered is not None:
        return said.ordered is False and column.type.upper() in _TEXT_OR_BYTES
    configured = context.option("uuid-primary-key", "time_ordered_columns", ()) or ()
    patterns = tuple(str(p).lower() for p in ((configured,) if isinstance(configured, str) else configured))
    found = uuid_key(table, column, patterns)
    if found is None or found.ordered is not None:
        return False
    leads_foreign_key = any(fk.columns and fk.columns[0].lower() == column.name.lower() for fk in table.foreign_keys)
    return not (len(key.columns) > 1 and leads_foreign_key)


class WidePrimaryKey(Check):
    id = RULE
    title = "Wide clustered key copied into every secondary index"
    severity = "warning"
    doc = RuleDoc(
        why=(
            "InnoDB clusters a table on its PRIMARY KEY (else the first NOT NULL UNIQUE key) and every secondary index "
            "record holds that key's columns, to find the row. A VARCHAR(255) utf8mb4 key is up to 1,022 bytes in "
            "each entry of each secondary index where a BIGINT takes 8: the indexes grow by that much per row, fewer "
            "entries fit a 16 KiB page, the trees get deeper and need more buffer pool, and every foreign key that "
            "references the table repeats the wide value too."
        ),
        evidence=(
            "The clustered key's width in bytes for the table's character sets on the target (column, table, schema, "
            "server default; utf8mb4 counts 4 bytes a character, CHAR/VARCHAR a length byte or two: "
            "linter.schema.innodb_sizes), above `max_key_bytes` (default 100), on a table with at least one secondary "
            "index (B-tree or SPATIAL; a FULLTEXT index carries FTS_DOC_ID instead). The message gives each index's "
            "copy (InnoDB appends only the key columns an index does not already hold whole) and their sum per row; "
            "with table stats, the sum times the rows. A table clustered on a UNIQUE key (no PRIMARY KEY) is judged "
            "by that key; one on the hidden 6-byte row id is no-primary-key's. A link table clustered on the pair it "
            "relates (the model's link identity, as link-table-primary-key reads it) gets no finding: that key is what "
            "lookups by one side want, a surrogate would scatter them, and link-table-primary-key's finding weighs the "
            "width when it proposes the pair. A child table whose key starts with a reference to its parent (one "
            "parent's rows together) keeps its key too: the finding is info, without the surrogate, and says to narrow "
            "the columns instead. A key uuid-primary-key flags (random UUIDs) is left "
            "to it: its finding gives the same surrogate-key fix. Where the application's model says what fills a "
            "one-column key (an ORM's generator: Prisma's cuid() 25 characters, cuid(2) 24, nanoid() 21, ulid() 26, "
            "uuid() 36; Laravel's HasUlids and HasUuids), the key is counted as those values take it: a VARCHAR holds "
            "the value and its length, a CHAR in a multi-byte character set at least its length in bytes. Prisma's "
            "default VARCHAR(191) holding cuids is 26 bytes an entry, not 766: an info that says how to declare the "
            "width in the model (`@db.VarChar(25)`). For a table an ORM's migrations own, the fix is in the model "
            "(a BigInt autoincrement @id, the key kept @unique; the column's @db width), never an ALTER its next "
            "migration undoes."
        ),
        bad=(
            "CREATE TABLE account (\n  email VARCHAR(255) NOT NULL,\n  name VARCHAR(100),\n  created_at DATETIME,\n"
            "  PRIMARY KEY (email),\n  KEY (name),\n  KEY (created_at)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;"
        ),
        good=(
            "CREATE TABLE account (\n  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,\n  email VARCHAR(255) NOT NULL,\n"
            "  name VARCHAR(100),\n  created_at DATETIME,\n  PRIMARY KEY (id),\n  UNIQUE KEY (email),\n"
            "  KEY (name),\n  KEY (created_at)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;"
        ),
        fix=(
            "A narrow surrogate key, the natural key kept UNIQUE: `ALTER TABLE t DROP PRIMARY KEY, ADD COLUMN id "
            "BIGINT UNSIGNED NOT NULL AUTO_INCREMENT [INVISIBLE] FIRST, ADD PRIMARY KEY (id), ADD UNIQUE KEY "
            "(natural columns)` (INVISIBLE where the server has it, so SELECT * and INSERTs without a column list "
            "keep working; foreign keys that reference the natural key keep working on the UNIQUE key). The trade: "
            "a lookup by the natural key reads the UNIQUE index and then the clustered index (one more B-tree "
            "descent), and rows are stored in insertion order, no longer by the natural key, so range scans on it "
            "read scattered pages. Never for link tables, whose composite key is the point. The ALTER rebuilds the "
            "table."
        ),
        options={
            "severity": "severity of a wide clustered key (default warning)",
            "max_key_bytes": "the widest clustered key, in bytes as a secondary index holds it, not flagged (default 100)",
        },
        option_types={"max_key_bytes": Integer(ge=ROW_ID_BYTES)},
        option_defaults={"max_key_bytes": DEFAULT_MAX_KEY_BYTES},
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        limit = int(context.option(self.id, "max_key_bytes", DEFAULT_MAX_KEY_BYTES))
        entities: list[EntityIndex] = []  # built when a key is wide: names are matched to tables

        def judge(table: Table) -> Iterator[Finding]:
            if not table.is_innodb or len(table.indexes) < 2:
                return
            found = copies(table, context.target, model)
            if found is None or found.width.stored_bytes <= limit or not found.total:
                return
            link = link_identity(model, table)
            if link is not None and link.is_clustered_on(found.key):
                return  # a link table clustered on its pair: what lookups by one side want (link-table-primary-key's)
            said = said_about(table, found.key, context)
            if random_uuid_key(table, found.key, context, said):
                return  # uuid-primary-key's finding says it, with the same surrogate-key fix
            held = copies(table, context.target, model, said.value_chars) if said and said.value_chars else None
            if said is not None and held is not None and held.width.stored_bytes <= limit:
                # the declaration is wide, the values the ORM stores are not
                column = table.column(found.key.columns[0].name)
                if said.declare and column is not None and (column.length or 0) > (said.value_chars or 0):
                    yield self._declared_wider(table, found, held, said, limit, context.target)
                return
            if not entities:
                entities.append(entity_index(model))
            yield self._finding(table, held or found, clustered_by_parent(table, found.key, entities[0]), context, said)

        return judged_once(model, context, judge)

    def _declared_wider(self, table: Table, declared: Copies, held: Copies, said: KeyEvidence, limit: int,
                        target: Target) -> Finding:
        """Info: a key declared wide that holds narrow values (Prisma's VARCHAR(191) with cuids):
        the copies are what the values take; the declaration, in the model's terms, can say so."""
        key = declared.key
        columns = ", ".join(quote(c) for c in key.column_names)
        width = declared.width.stored_bytes
        message = (
            f"{table.name}'s PRIMARY KEY ({columns}) is declared up to {width:,} bytes ({_explain(declared.width)}), "
            f"but the application's model fills it: {said.says()}; {said.value_source}. A secondary index entry "
            f"holds {held.width.stored_bytes:,} bytes of it ({_explain(held.width)}), within max_key_bytes "
            f"({limit:,}): not a wide key."
        )
        if not target.is_mysql8:
            # MySQL 8.0's TempTable engine stores a VARCHAR as long as its value; the MEMORY engine
            # MariaDB and MySQL 5.7 use for in-memory internal temporary tables stores every row at
            # its declared maximum ("MEMORY tables use a fixed-length row-storage format")
            message += (f" The declared width still costs on {target.label}: its in-memory temporary tables "
                        "(GROUP BY, DISTINCT, derived tables: the MEMORY engine) store a VARCHAR at its full length.")
        message += f" To declare the width the values take: {said.declare}."
        return self.finding(table, message, severity="info", where=_place(table, declared),
                            evidence=_evidence(held) + f"; declared {width:,} bytes; model file {said.where}: "
                            f"{said.generator}", subject=(key.name or "").lower(),
                            summary=f"{table.name}'s {width:,}-byte PRIMARY KEY ({columns}) holds "
                            f"{said.value_chars}-character ids")

    def _finding(self, table: Table, found: Copies, by_parent: bool, context: CheckContext,
                 said: KeyEvidence | None = None) -> Finding:
        key = found.key
        columns = ", ".join(quote(c) for c in key.column_names)
        kind = "PRIMARY KEY" if key.kind == "primary" else f"UNIQUE key {quote(key.name or '')} (it has no PRIMARY KEY)"
        width = found.width.stored_bytes
        shown = ", ".join(f"{quote(index.name or '')} {n:,}" for index, n in found.per_index if n)
        summary = (f"{table.name} is clustered on a {width:,}-byte "
                   f"{'PRIMARY KEY' if key.kind == 'primary' else 'UNIQUE key'} ({columns})")
        message = [
            f"{table.name} is clustered on {kind} ({columns}): up to {width:,} bytes ({_explain(found.width)}). "
            f"Every secondary index entry holds it: {_count(found.per_index)} up to {found.total:,} bytes of it per "
            f"row ({shown}); a BIGINT key would be 8 bytes in each.",
        ]
        if said is not None and said.value_chars is not None:
            message.append(f"The application's model says what fills it: {said.says()}; {said.value_source}.")
        stats = context.table_stats(table)
        message += _at_size(found.total, stats)
        if by_parent:
            first = key.columns[0].name
            message.append(
                f"Its key starts with {quote(first)}, a reference to another table: "
                f"the rows of one {first} sit together, which a surrogate key would undo. Keep the key; narrow the "
                "columns it copies instead (integer or BINARY(16) keys rather than text, a 1-byte character set for "
                "codes), or drop secondary indexes that add little."
            )
            return self.finding(table, " ".join(message), severity="info", where=_place(table, found),
                                evidence=_evidence(found), subject=(key.name or "").lower(), summary=summary)
        fix: str | None
        if said is not None and said.rekey:
            # the ORM writes the migrations: an ALTER of one's own is drift its next migration undoes
            fix = None
            declare = ""
            column = table.column(key.columns[0].name) if len(key.columns) == 1 else None
            if said.declare and column is not None and (said.value_chars is None
                                                        or (column.length or 0) > said.value_chars):
                declare = f" Or, where the key should stay, {said.declare}."
            note = f"Fix in the application's model, not with an ALTER: {said.rekey}.{declare}"
        else:
            fix, note = _fix(table, key, context.target)
        message.append(note)
        if key.kind == "unique":
            message.append("(Promoting the UNIQUE key to PRIMARY KEY, as no-primary-key suggests, would keep this "
                           "same wide key.)")
        message.append(
            "The trade: a lookup by the natural key reads the UNIQUE index, then the clustered index (one more B-tree "
            "descent), and rows are stored in insertion order instead of by that key, so range scans on it read "
            "scattered pages."
        )
        return self.finding(table, " ".join(m for m in message if m), where=_place(table, found),
                            evidence=_evidence(found), fix=fix, subject=(key.name or "").lower(), summary=summary)


def _count(per_index: Sequence[tuple[Index, int]]) -> str:
    n = sum(1 for _, carried in per_index if carried)
    return f"its {n} secondary indexes carry" if n != 1 else "its secondary index carries"


def _explain(width: KeyWidth) -> str:
    """`email VARCHAR(255) in utf8mb4 (the table's default): 1,020 + 2 length bytes`, per part."""
    parts = []
    for part in width.parts:
        text = part.note.split(" x ", 1)[0].split(":", 1)[0]
        if part.charset is not None and part.charset.charset != "binary":
            text += f" in {part.charset.charset} ({part.charset.source if part.charset.source != 'server default' else 'the server default'})"
        text += f": {part.bytes or 0:,}" + (f" + {part.length_bytes} length byte{'s' if part.length_bytes > 1 else ''}"
                                           if part.length_bytes else "")
        parts.append(text)
    return "; ".join(parts)


def _at_size(total: int, stats: TableStats | None) -> list[str]:
    if stats is None or not stats.rows:
        return []
    return [f"At ~{stats.rows:,} rows that is up to {_human(total * stats.rows)} of secondary index space"
            + (f" (the indexes take {_human(stats.index_length)} now)." if stats.index_length else ".")]


def _human(n: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n} bytes"


def _evidence(found: Copies) -> str:
    return (f"clustered key ({', '.join(found.key.column_names)}): {_explain(found.width)}; "
            f"{found.width.stored_bytes:,} bytes as an index holds it; copied per row: {found.total:,} bytes into "
            f"{sum(1 for _, n in found.per_index if n)} secondary index(es)")


def _place(table: Table, found: Copies) -> Location:
    """The statement that last widened the key or added an index that copies it."""
    parts: list[tuple[Table, Column | Index]] = [(table, found.key)]
    parts += [(table, column) for name in found.key.column_names if (column := table.column(name)) is not None]
    parts += [(table, index) for index, n in found.per_index if n]
    return latest_place(parts)


def _fix(table: Table, key: Index, target: Target) -> tuple[str, str]:
    """A BIGINT UNSIGNED AUTO_INCREMENT surrogate as the primary key, the natural key kept UNIQUE
    (an AUTO_INCREMENT column the table has already becomes the key instead); the partitioning
    columns join the new key (every unique key must hold them: error 1503)."""
    name = qualified(table)
    natural = ", ".join(quote(c) for c in key.column_names)
    partitioning = table.partition_columns
    auto = next((c for c in table.columns.values() if c.auto_increment), None)
    steps = []
    if key.kind == "primary":
        steps.append("DROP PRIMARY KEY")
    if auto is not None:
        surrogate = auto.name
        note = f"The AUTO_INCREMENT column {quote(surrogate)} becomes the key."
    else:
        surrogate = "id"
        n = 1
        while table.column(surrogate) is not None:
            surrogate = "row_id" if surrogate == "id" else f"row_id{n}"
            n += 1
        invisible = " INVISIBLE" if target.has_invisible_columns else ""
        steps.append(f"ADD COLUMN {quote(surrogate)} BIGINT UNSIGNED NOT NULL AUTO_INCREMENT{invisible} FIRST")
        note = (f"The fix adds {quote(surrogate)} BIGINT UNSIGNED AUTO_INCREMENT as the key"
                + (", INVISIBLE so that SELECT * and INSERTs without a column list keep working" if invisible else "")
                + "; foreign keys that reference the natural key keep working on the UNIQUE key. It rebuilds the table.")
    new_key = [surrogate] + [c for c in partitioning if c.lower() != surrogate.lower()]
    steps.append(f"ADD PRIMARY KEY ({', '.join(quote(c) for c in new_key)})")
    if key.kind == "primary":
        steps.append(f"ADD UNIQUE KEY ({natural})")
    return f"ALTER TABLE {name} {', '.join(steps)};", note
