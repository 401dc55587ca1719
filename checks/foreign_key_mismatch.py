"""foreign-key-mismatch: a foreign key whose columns do not match the columns they reference,
that references columns no key of the parent starts with, or a table that does not exist.

InnoDB compares a child's value with the parent's as stored bytes, so it only accepts a foreign
key between columns it can compare: integers of the same size and sign, text in the same
character set and collation, any two binary strings (cmp_cols_are_equal in InnoDB's
dict0dict.cc). The parent needs an index whose first columns are the referenced ones; MySQL 8.4
also wants it to be a PRIMARY KEY or UNIQUE key on exactly those columns. What each server refuses
is checked on MariaDB 10.11 in tests/test_foreign_key_mismatch.py; MySQL's rules are its manual's
("FOREIGN KEY Constraints", "Conditions and Restrictions").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from linter.rules.column_sql import change_columns
from linter.parse.keys import MAX_KEYS
from linter.rules.copies import judged_once
from linter.rules.checkapi import (
    Check, CheckContext, RuleDoc, foreign_keys_by_parent, latest_place, qualified, quote, table_patterns,
)
from linter.rules.findings import Finding, Severity
from linter.rules.options import STRINGS
from linter.schema.innodb_sizes import SPATIAL_TYPES, column_charset, schema_of, server_defaults
from linter.parse.elements import LARGE_TYPES, Column, ForeignKey, Index
from linter.schema.entities import EntityIndex, entity_index, name_tokens
from linter.schema.model import SchemaModel, Table
from linter.record import FrozenRecord
from linter.schema.target import Target

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)

_INTEGER_BYTES = {"TINYINT": 1, "SMALLINT": 2, "MEDIUMINT": 3, "INT": 4, "BIGINT": 8}
#: types InnoDB stores as a binary string (DATA_FIXBINARY / DATA_BINARY): any two compare
#: (verified on MariaDB: BINARY(16) with VARBINARY(32), DECIMAL(10,2) with DECIMAL(12,2),
#: DATETIME with TIMESTAMP, BIT(8) with BIT(16), DATETIME with BINARY(5) are all accepted)
_BINARY_STORED = frozenset({"BINARY", "VARBINARY", "DECIMAL", "DATETIME", "TIMESTAMP", "TIME", "BIT", "UUID",
                            "INET4", "INET6"})
_TEMPORAL = frozenset({"DATETIME", "TIMESTAMP", "TIME"})
_STRINGS = frozenset({"CHAR", "VARCHAR", "BINARY", "VARBINARY"})
#: default collation of each character set where it is not `<charset>_general_ci` (MariaDB 10.11's
#: information_schema.CHARACTER_SETS, verified; MySQL's are the same but for utf8mb4, which
#: `server_defaults` knows per target)
_DEFAULT_COLLATIONS = {
    "big5": "big5_chinese_ci", "dec8": "dec8_swedish_ci", "hp8": "hp8_english_ci", "latin1": "latin1_swedish_ci",
    "swe7": "swe7_swedish_ci", "ujis": "ujis_japanese_ci", "sjis": "sjis_japanese_ci", "tis620": "tis620_thai_ci",
    "euckr": "euckr_korean_ci", "gb2312": "gb2312_chinese_ci", "gbk": "gbk_chinese_ci",
    "latin5": "latin5_turkish_ci", "binary": "binary", "cp932": "cp932_japanese_ci",
    "eucjpms": "eucjpms_japanese_ci", "gb18030": "gb18030_chinese_ci",
}


def collation(column: Column, table: Table, target: Target, model: SchemaModel) -> str | None:
    """The collation a text column compares with (None for other types): its own COLLATE, the
    `_bin` one of its character set for the BINARY attribute, the default collation of a
    CHARACTER SET written without COLLATE (not the table's: verified on MariaDB), else the
    table's, the schema's or the server's."""
    resolved = column_charset(column, table, target, schema_of(model, table))
    if resolved is None or column.type not in ("CHAR", "VARCHAR", "ENUM", "SET"):
        return None
    if column.binary:
        return f"{resolved.charset}_bin"
    if resolved.collation:
        return resolved.collation
    if resolved.charset == "utf8mb4":
        return server_defaults(target).utf8mb4_collation
    return _DEFAULT_COLLATIONS.get(resolved.charset, f"{resolved.charset}_general_ci")


class Stored(FrozenRecord):
    """How InnoDB stores a column, as far as comparing two of them goes."""

    __slots__ = __match_args__ = ("kind", "detail")
    kind: str  # "int", "float", "double", "text", "binary", "unindexable", "other:<TYPE>"
    detail: object  # int: (bytes, unsigned); text: the collation

    def __init__(self, kind: str, detail: object = None) -> None:
        _set(self, "kind", kind)
        _set(self, "detail", detail)


def stored(column: Column, table: Table, target: Target, model: SchemaModel) -> Stored:
    kind = column.type
    if kind in _INTEGER_BYTES:
        return Stored("int", (_INTEGER_BYTES[kind], column.unsigned))
    if kind in ("YEAR", "DATE"):  # one and three unsigned bytes in InnoDB (DATA_INT)
        return Stored("int", (1 if kind == "YEAR" else 3, True))
    if kind in ("ENUM", "SET"):  # stored as the member's number
        size = (1 if len(column.params) < 256 else 2) if kind == "ENUM" else min(8, (len(column.params) + 7) // 8)
        return Stored("int", (size, True))
    if kind in ("FLOAT", "DOUBLE", "REAL"):
        return Stored("double" if kind != "FLOAT" else "float")
    if kind in LARGE_TYPES or kind in SPATIAL_TYPES:
        return Stored("unindexable")
    text = collation(column, table, target, model)
    if kind in ("CHAR", "VARCHAR") and text is not None and text != "binary":
        return Stored("text", text)
    if kind in _BINARY_STORED or kind in ("CHAR", "VARCHAR"):
        return Stored("binary")
    return Stored(f"other:{kind}")


class ColumnMismatch(FrozenRecord):
    """One referencing column against its referenced column: `refused` when the target's server
    does not create the foreign key, `problems` in words, `new` the child column as it should be."""

    __slots__ = __match_args__ = ("child", "parent", "refused", "problems", "new")
    child: Column
    parent: Column
    refused: bool
    problems: tuple[str, ...]
    new: Column

    def __init__(self, child: Column, parent: Column, refused: bool, problems: tuple[str, ...], new: Column) -> None:
        _set(self, "child", child)
        _set(self, "parent", parent)
        _set(self, "refused", refused)
        _set(self, "problems", problems)
        _set(self, "new", new)


def compare(child: Column, child_table: Table, parent: Column, parent_table: Table, target: Target,
            model: SchemaModel) -> ColumnMismatch | None:
    """Whether the server takes a foreign key from `child` to `parent`, and what else differs.
    Refused (InnoDB cannot compare them, on every server; MySQL's manual adds DECIMAL precision
    and scale): integers of another size or sign; an integer with anything else; text with a
    binary string; text in another character set or collation; FLOAT with DOUBLE; BLOB/TEXT/JSON/
    spatial columns. Accepted but worth a warning: a child shorter than its parent (longer parent
    values cannot be referenced), DECIMAL, temporal or fractional-second differences on MariaDB,
    ENUM/SET member lists that differ (InnoDB compares the members' numbers)."""
    a, b = stored(child, child_table, target, model), stored(parent, parent_table, target, model)
    if "unindexable" in (a.kind, b.kind):
        return ColumnMismatch(child, parent, True, ("a BLOB/TEXT/JSON/spatial column cannot be part of a foreign key",),
                              child)
    problems: list[str] = []
    refused = False
    new = child
    if a.kind != b.kind or (a.kind == "int" and a.detail != b.detail):
        refused = True
        how = "differ in size or sign" if a.kind == b.kind else "are stored differently"
        problems.append(f"{_type_sql(child)} and {_type_sql(parent)} {how}")
        return ColumnMismatch(child, parent, True, tuple(problems), _as_parent(child, parent, parent_table, target, model))
    if a.kind == "text" and a.detail != b.detail:
        refused = True
        problems.append(f"collation {a.detail} and {b.detail} differ")
        text = str(b.detail)
        new = replace(new, charset=text.split("_", 1)[0], collation=text, binary=False)
    if child.type == "DECIMAL" and parent.type == "DECIMAL" and _decimal(child) != _decimal(parent):
        if not target.is_mariadb:  # "The size and sign of fixed precision types such as INTEGER and DECIMAL must be the same"
            refused = True
            problems.append(f"{_type_sql(child)} and {_type_sql(parent)} differ in precision or scale")
            new = replace(new, params=parent.params)
        elif not _holds(_decimal(child), _decimal(parent)):
            problems.append(f"{_type_sql(child)} cannot hold every {_type_sql(parent)} value")
            new = replace(new, params=parent.params)
    elif child.type != parent.type and (child.type in _TEMPORAL or parent.type in _TEMPORAL):
        problems.append(f"{_type_sql(child)} and {_type_sql(parent)} are different types: InnoDB compares their "
                        "stored bytes, which mean different things")
        new = _as_parent(child, parent, parent_table, target, model)
    elif child.type in _TEMPORAL and child.type == parent.type and _fsp(child) < _fsp(parent):
        problems.append(f"{_type_sql(child)} drops the fractional seconds of {_type_sql(parent)}: those parent "
                        "values cannot be referenced")
        new = replace(new, params=parent.params)
    elif child.type in ("ENUM", "SET") and child.type == parent.type and \
            [p.lower() for p in child.params] != [p.lower() for p in parent.params]:
        problems.append(f"{child.type} members differ: InnoDB compares the members' numbers, so a value matches "
                        "the parent's member at the same position")
        new = replace(new, params=parent.params)
    elif child.type in _STRINGS and parent.type in _STRINGS and (child.length or 1) < (parent.length or 1):
        problems.append(f"{_type_sql(child)} is shorter than {_type_sql(parent)}: longer parent values cannot be "
                        "referenced, and ON UPDATE CASCADE of one fails")
        new = replace(new, params=parent.params)
    if not problems:
        return None
    return ColumnMismatch(child, parent, refused, tuple(problems), new)


def _as_parent(child: Column, parent: Column, parent_table: Table, target: Target, model: SchemaModel) -> Column:
    """The child column with the parent's type (size, sign, length, character set and collation),
    keeping its own nullability, default and comment."""
    text = collation(parent, parent_table, target, model)
    params = () if parent.type in _INTEGER_BYTES else parent.params  # an integer's display width means nothing
    return replace(child, type=parent.type, params=params, unsigned=parent.unsigned, binary=False,
                   charset=text.split("_", 1)[0] if text and text != "binary" else None,
                   collation=text if text and text != "binary" else None, auto_increment=False)


def _decimal(column: Column) -> tuple[int, int]:
    params = [int(p) for p in column.params if p.isdigit()]
    precision = params[0] if params else 10
    return precision, params[1] if len(params) > 1 else 0


def _holds(child: tuple[int, int], parent: tuple[int, int]) -> bool:
    return child[0] - child[1] >= parent[0] - parent[1] and child[1] >= parent[1]


def _fsp(column: Column) -> int:
    return int(column.params[0]) if column.params and column.params[0].isdigit() else 0


def _type_sql(column: Column) -> str:
    text = column.type + (f"({','.join(column.params)})" if column.params and column.type not in ("ENUM", "SET") else "")
    if column.type in ("ENUM", "SET"):
        text += "(" + ", ".join(f"'{p}'" for p in column.params) + ")"
    return text + (" UNSIGNED" if column.unsigned else "")


def referenced_key(parent: Table, columns: tuple[str, ...]) -> tuple[Index | None, Index | None]:
    """The parent's index a foreign key on `columns` uses, and the PRIMARY/UNIQUE key on exactly
    them that MySQL 8.4 asks for (restrict_fk_on_non_standard_key=ON), each None when there is
    none. InnoDB takes an index whose first columns, whole and in order, are `columns`, counting
    the clustered key's columns it appends to a secondary index: with PRIMARY KEY (a, b), KEY (c)
    serves a reference to (c, a) (verified on MariaDB)."""
    wanted = [c.lower() for c in columns]
    clustered = parent.clustered_index
    suffix = [p.name.lower() for p in clustered.columns] if clustered is not None else []
    usable = standard = None
    for index in parent.indexes[:MAX_KEYS]:  # no server takes more: hostile input stays linear
        if index.kind not in ("primary", "unique", "index"):
            continue
        stored = []
        for part in index.columns:
            if part.prefix is not None or part.expression:
                stored.append("")  # a prefix or an expression matches no column
            else:
                stored.append(part.name.lower())
        if index is not clustered:
            stored += [c for c in suffix if c not in stored]
        if stored[: len(wanted)] == wanted:
            usable = usable or index
            if index.kind in ("primary", "unique") and [p.name.lower() for p in index.columns] == wanted:
                standard = standard or index
    return usable, standard


class ForeignKeyMismatch(Check):
    id = "foreign-key-mismatch"
    title = "Foreign key whose columns do not match the referenced ones"
    severity = "error"
    doc = RuleDoc(
        why=(
            "InnoDB checks a foreign key by comparing the child's stored value with the parent's, so it only takes a "
            "foreign key between columns it can compare, and it needs an index on the parent that starts with the "
            "referenced columns. A migration with such a foreign key fails on deploy; a dump loads it anyway when "
            "the child table comes first with foreign_key_checks=0 (mysqldump's order and setting), and then "
            "every insert into the child fails with ERROR 1452 (verified on MariaDB 10.11). Mismatches the "
            "servers accept still lose data: a VARCHAR(50) child cannot reference a 60-character parent value."
        ),
        evidence=(
            "A parent table the input never creates (or drops before its end) is refused while foreign_key_checks=1 "
            "(MariaDB ERROR 1005 errno 150, MySQL 8.0+ ERROR 1824, 5.7 ERROR 1215), and with it off every insert that "
            "sets the columns fails (ERROR 1452): an error, unless the parent is in a database the input never "
            "names or the `external_tables` option lists it (it exists outside the linted files). "
            "Both tables in the input; for each column pair, the column types as InnoDB stores them, with the "
            "character set and collation resolved as the server does (column, table, schema, server default; a "
            "CHARACTER SET without COLLATE takes that set's default collation, not the table's). Refused on every "
            "target (MariaDB 10.11 verified: CREATE TABLE fails with ERROR 1005 errno 150 \"Foreign key constraint "
            "is incorrectly formed\", ALTER TABLE ... ADD with ERROR 1822, also with foreign_key_checks=0 once the "
            "parent exists; MySQL 8.0+ ERROR 3780 \"Referencing column ... are incompatible\", 5.7 ERROR 1215): "
            "integers of another size or sign (INT with BIGINT, INT with INT UNSIGNED; ZEROFILL is UNSIGNED), an "
            "integer with any other type, text with a binary string, text in another character set or collation, "
            "FLOAT with DOUBLE, BLOB/TEXT/JSON/spatial columns, a different number of columns (ERROR 1239), and "
            "referenced columns that are not the first columns, whole and in order, of an index of the parent "
            "(ERROR 1005/1822). MySQL also refuses DECIMAL of another precision or scale (its manual: \"the size "
            "and sign of fixed precision types such as INTEGER and DECIMAL must be the same\"); MariaDB accepts it. "
            "Accepted, flagged as a warning: a child CHAR/VARCHAR/BINARY shorter than its parent (string lengths "
            "\"need not be the same\"), DECIMAL on MariaDB when the child cannot hold every parent value, DATETIME "
            "with TIMESTAMP or fewer fractional seconds, ENUM/SET whose members differ (InnoDB compares member "
            "numbers). Display widths (INT(10) with INT(11)) and CHAR with VARCHAR are the same for InnoDB. A "
            "foreign key to a non-unique key or to part of one: MySQL 8.4 refuses it by default "
            "(restrict_fk_on_non_standard_key=ON: ERROR 6125 \"Missing unique key for constraint\"): an error "
            "there, a warning elsewhere (MariaDB accepts any index that starts with the columns: verified)."
        ),
        bad=(
            "CREATE TABLE customer (\n  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY\n) ENGINE=InnoDB;\n"
            "CREATE TABLE orders (\n  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,\n"
            "  customer_id INT NOT NULL,\n  FOREIGN KEY (customer_id) REFERENCES customer (id)\n) ENGINE=InnoDB;"
        ),
        good=(
            "CREATE TABLE customer (\n  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY\n) ENGINE=InnoDB;\n"
            "CREATE TABLE orders (\n  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,\n"
            "  customer_id INT UNSIGNED NOT NULL,\n  FOREIGN KEY (customer_id) REFERENCES customer (id)\n) ENGINE=InnoDB;"
        ),
        fix=(
            "Give the referencing column the referenced column's type, sign, length, character set and collation, "
            "keeping its own NULL, default and comment. Where the foreign key exists (a dump loaded it), the fix "
            "drops it, changes the column and adds it back with its ON DELETE/ON UPDATE actions (the servers refuse "
            "to change a column a foreign key uses). For a parent without a key on the referenced columns: "
            "`ALTER TABLE parent ADD UNIQUE KEY (columns)`, after checking there are no duplicates."
        ),
        options={"severity": "severity of a foreign key the target refuses (default error; accepted mismatches are "
                             "warnings)",
                 "external_tables": "tables a foreign key may reference that exist outside the linted input (another "
                                    "service's schema, a file linted on its own): glob patterns of `table` or "
                                    "`schema.table`, case-insensitive (default: none)"},
        option_types={"external_tables": STRINGS},
        option_defaults={"external_tables": []},
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        target = context.target
        refused_severity: Severity = context.option(self.id, "severity", self.severity)
        by_parent = foreign_keys_by_parent(model)
        missing = _MissingParents(model, context.option(self.id, "external_tables", []) or [])

        def judge(child: Table) -> Iterator[Finding]:
            if not child.is_innodb:
                return
            for fk in child.foreign_keys:
                parent = model.find_table(fk.ref_schema if fk.ref_schema is not None else child.schema, fk.ref_table)
                if parent is None:
                    if missing.reported(child, fk):
                        yield self._missing(child, fk, target, refused_severity, missing)
                    continue
                if parent.view_standin or not parent.is_innodb or not fk.ref_columns:
                    continue
                finding = self._check(child, fk, parent, target, model, refused_severity, by_parent)
                if finding is not None:
                    yield finding

        return judged_once(model, context, judge)

    def _missing(self, child: Table, fk: ForeignKey, target: Target, severity: Severity,
                 missing: _MissingParents) -> Finding:
        """A foreign key to a table the input never creates (or drops before its end): the server
        refuses it while foreign_key_checks=1, and with it off every insert of a non-NULL value fails."""
        name = quote(fk.name or "")
        parent = f"{fk.ref_schema}.{fk.ref_table}" if fk.ref_schema is not None else fk.ref_table
        columns = ", ".join(fk.columns)
        message = [f"{child.name}: foreign key {name} references {parent}, a table the input never creates"
                   f"{missing.why(child, fk)}: {_missing_refusal(target, fk.ref_table)}. With foreign_key_checks=0 (a "
                   f"dump's setting) the table is created, and then every insert or update that sets ({columns}) to a "
                   "value fails with ERROR 1452 (Cannot add or update a child row: a foreign key constraint fails)."]
        near = missing.near(child, fk)
        if near is not None:
            message.append(f"Did you mean {near}?")
        message.append("If the table exists outside the linted files (another service's schema, a file linted on its "
                       f"own), list it in the rule's external_tables option ([tool.innolint.rules.{self.id}] "
                       f"external_tables = [\"{parent}\"]; globs, `table` or `schema.table`).")
        return self.finding(
            child, " ".join(message), severity=severity, where=child.place(fk),
            evidence=f"{child.name} ({columns}) -> {parent} ({', '.join(fk.ref_columns)}): no such table at the end of "
                     "the input", subject=(fk.name or "").lower(),
            summary=f"{child.name}: foreign key {name} references {parent}, which does not exist")

    def _check(self, child: Table, fk: ForeignKey, parent: Table, target: Target, model: SchemaModel,
               refused_severity: Severity, by_parent: dict[tuple[str, str], list[tuple[Table, ForeignKey]]],
               ) -> Finding | None:
        name = quote(fk.name or "")
        reference = f"{child.name} ({', '.join(fk.columns)}) -> {parent.name} ({', '.join(fk.ref_columns)})"
        if len(fk.columns) != len(fk.ref_columns):
            return self.finding(
                child, f"{child.name}: foreign key {name} has {len(fk.columns)} columns and references "
                f"{len(fk.ref_columns)}: {_refusal(target, count=True)}", severity=refused_severity,
                where=child.place(fk), evidence=reference, subject=(fk.name or "").lower(),
                summary=f"{child.name}: foreign key {name} has {len(fk.columns)} columns and references "
                f"{len(fk.ref_columns)}")
        pairs = [(child.column(c), parent.column(p)) for c, p in zip(fk.columns, fk.ref_columns)]
        if any(c is None or p is None for c, p in pairs):
            return None  # a column the input never defined: replay reports it
        mismatches = [m for c, p in pairs if (m := compare(c, child, p, parent, target, model)) is not None]  # type: ignore[arg-type]
        usable, standard = referenced_key(parent, fk.ref_columns)
        messages = [f"{child.name}.{m.child.name} {_type_sql(m.child)} references {parent.name}.{m.parent.name} "
                    f"{_type_sql(m.parent)}: {'; '.join(m.problems)}." for m in mismatches]
        refused = any(m.refused for m in mismatches)
        strict = False
        if usable is None:
            messages.append(f"No index of {parent.name} starts with ({', '.join(fk.ref_columns)}), whole and in that "
                            "order: InnoDB needs one to find a child's parent.")
        elif standard is None:
            strict = not target.is_mariadb and target.version >= (8, 4)
            messages.append(
                f"{parent.name} ({', '.join(fk.ref_columns)}) is not a PRIMARY KEY or UNIQUE key (only "
                f"{_index_sql(usable)} starts with it): a child row may have several parents. MySQL 8.4 refuses it "
                "by default (restrict_fk_on_non_standard_key=ON: ERROR 6125 Missing unique key for constraint)"
                + ("." if strict else f"; {target.label} accepts it."))
        severity: Severity = "warning"
        if refused or usable is None or strict:
            severity = refused_severity
        if refused or usable is None:  # (the non-standard key's sentence says what MySQL 8.4 does)
            messages.insert(0, _refusal(target, types=refused, index=usable is None) + ".")
        key_fix = ""
        if usable is None or standard is None:
            columns = ", ".join(quote(c) for c in fk.ref_columns)
            key_fix = f"ALTER TABLE {qualified(parent)} ADD UNIQUE KEY ({columns});"
            messages.append(f"Check for duplicates first: SELECT {columns}, COUNT(*) FROM {qualified(parent)} "
                            f"GROUP BY {columns} HAVING COUNT(*) > 1.")
        if not messages:
            return None
        changed = [(child, m.new) for m in mismatches if m.new is not m.child]
        column_fix, referencing = change_columns(model, changed, target, by_parent) if changed else ("", [])
        if referencing:
            messages.append(f"Foreign keys reference the column{'s' if len(changed) > 1 else ''} the fix changes "
                            f"({', '.join(referencing[:5])}{' ...' if len(referencing) > 5 else ''}): they change with "
                            "it.")
        fix = "\n".join(filter(None, [key_fix, column_fix]))
        where = latest_place([(child, fk)] + [(child, m.child) for m in mismatches] + [(parent, m.parent) for m in mismatches])
        evidence = "; ".join([reference] + [f"{m.child.name} {_type_sql(m.child)}{_collation_note(m.child, child, target, model)}"
                                            f" vs {m.parent.name} {_type_sql(m.parent)}"
                                            f"{_collation_note(m.parent, parent, target, model)}" for m in mismatches])
        if mismatches:
            first = mismatches[0]
            point = (f"{first.child.name} {_type_sql(first.child)} references {parent.name}.{first.parent.name} "
                     f"{_type_sql(first.parent)}" + (f" (and {len(mismatches) - 1} more)" if len(mismatches) > 1 else ""))
        elif usable is None:
            point = f"no index of {parent.name} starts with ({', '.join(fk.ref_columns)})"
        else:
            point = f"{parent.name} ({', '.join(fk.ref_columns)}) is not a PRIMARY KEY or UNIQUE key"
        refused_here = refused or usable is None or strict
        summary = f"{child.name}: foreign key {name}: {point}" + (f"; {target.label} refuses it" if refused_here else "")
        return self.finding(child, f"{child.name}: foreign key {name}: " + " ".join(messages), severity=severity,
                            where=where, evidence=evidence, fix=fix or None, subject=(fk.name or "").lower(),
                            summary=summary)


class _MissingParents:
    """Which missing parents to report, and what to say of them: a table of a schema the input
    never names is outside it (a cross-database reference to a database not linted here), as is
    one the `external_tables` option names; a parent whose CREATE TABLE the server refuses is said
    to be refused. Near names come from the entity index (`users` for `user`), built on first need."""

    def __init__(self, model: SchemaModel, external: list[str]) -> None:
        self.model = model
        self.external = table_patterns(external)
        self._refused: set[tuple[str, str]] | None = None
        self._entities: EntityIndex | None = None

    def reported(self, child: Table, fk: ForeignKey) -> bool:
        if fk.ref_schema is not None and self.model.schemas.get(self.model.key(fk.ref_schema)) is None:
            return False  # a database the input never names: outside it
        return not self.external(fk.ref_schema if fk.ref_schema is not None else child.schema, fk.ref_table)

    def why(self, child: Table, fk: ForeignKey) -> str:
        """Why the table is not there, as far as innolint knows: its CREATE TABLE refused, else
        never created or dropped."""
        if self._refused is None:
            key = self.model.key
            self._refused = {(key(r.schema or ""), key(r.table_name)) for r in self.model.refusals
                             if r.table_name is not None and r.statement.upper().startswith("CREATE TABLE")}
        schema = fk.ref_schema if fk.ref_schema is not None else child.schema
        if (self.model.key(schema or ""), self.model.key(fk.ref_table)) in self._refused:
            return " (its CREATE TABLE is one the server refuses: see the finding there)"
        return " (or drops before its end)"

    def near(self, child: Table, fk: ForeignKey) -> str | None:
        """A table of the child's schema the name likely means (`user` -> users), or None."""
        if self._entities is None:
            self._entities = entity_index(self.model)
        tokens = name_tokens(fk.ref_table)
        found = self._entities.resolve(tokens, fk.ref_table, child, whole=True) if tokens else None
        return found[0] if found is not None and found[1] else None


def _missing_refusal(target: Target, table: str) -> str:
    """What the target does with a foreign key to a table that does not exist, foreign_key_checks=1."""
    if target.is_mariadb:
        return (f"{target.label} refuses it (ERROR 1005 errno 150 \"Foreign key constraint is incorrectly formed\"; "
                "ALTER TABLE: ERROR 1005 too)")
    if target.version < (8, 0):
        return f"{target.label} refuses it (ERROR 1215 Cannot add foreign key constraint)"
    return f"{target.label} refuses it (ERROR 1824 Failed to open the referenced table '{table}')"


def _refusal(target: Target, *, count: bool = False, types: bool = False, index: bool = False) -> str:
    """What the target's server does with such a foreign key: column types it cannot compare
    (`types`), no index on the parent (`index`), or a different number of columns (`count`)."""
    if count:
        return f"{target.label} refuses it (ERROR 1239 Incorrect foreign key definition)"
    if target.is_mariadb:
        return (f"{target.label} refuses it (CREATE TABLE: ERROR 1005 errno 150 \"Foreign key constraint is incorrectly "
                "formed\"; ALTER TABLE: ERROR 1822), also with foreign_key_checks=0 once the parent exists; a dump that "
                "creates the child first loads it, and every insert into the child then fails with ERROR 1452")
    if target.version < (8, 0):
        return f"{target.label} refuses it (ERROR 1215 Cannot add foreign key constraint)"
    errors = []
    if types:
        errors.append("ERROR 3780 Referencing column and referenced column are incompatible")
    if index:
        errors.append("ERROR 1822 Failed to add the foreign key constraint. Missing index")
    return f"{target.label} refuses it ({'; '.join(errors)})"


def _collation_note(column: Column, table: Table, target: Target, model: SchemaModel) -> str:
    text = collation(column, table, target, model)
    return f" {text}" if text else ""


def _index_sql(index: Index) -> str:
    parts = ", ".join(p.name for p in index.columns)
    if index.kind == "primary":
        return f"PRIMARY KEY ({parts})"
    return f"{'UNIQUE KEY' if index.kind == 'unique' else 'KEY'} {index.name} ({parts})"
