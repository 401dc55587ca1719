"""InnoDB's key length limits as the rules judge and fix them: what the target does with a key
longer than InnoDB takes (refuses it, cuts it to a prefix, turns a UNIQUE key into a hash;
checks/index_key_length.py's docstring says what each server does) and the key that fits.

One decision shared by several readers, so it lives beside the rule API rather than in one rule:
index-key-length reports it, charset-portability and non-innodb-engine ask it of a converted copy
of a table, and the replay (`key_refusal`) makes the refusal records index-key-length reads."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from linter.schema import innodb_sizes as sizes
from linter.rules.checkapi import quote
from linter.rules.findings import Severity
from linter.schema.key_facts import as_written, may_be_too_long
from linter.parse.elements import Index, IndexColumn
from linter.schema.model import Schema, Table
from linter.parse.body import TableBody
from linter.record import FrozenRecord
from linter.schema.target import Target


_set = object.__setattr__


def too_long_error(limit: int) -> str:
    return f"ERROR 1071 (42000): Specified key was too long; max key length is {limit} bytes"


COLUMN_TOO_LARGE_ERROR = "ERROR 1709 (42000): Index column size too large. The maximum column size is 767 bytes."


def no_prefix_error(column: str) -> str:
    return f"ERROR 1170 (42000): BLOB/TEXT column '{column}' used in key specification without a key length"


class KeyProblem(FrozenRecord):
    __slots__ = __match_args__ = ("kind", "severity", "message", "evidence", "server_prefixes")
    #: refused (the statement fails), truncated (MariaDB cuts a non-unique key to a prefix),
    #: hashed (MariaDB turns a UNIQUE key into a hash)
    kind: str
    severity: Severity
    message: str
    evidence: str
    #: truncated: the prefix (characters) MariaDB gives each cut part, by column name
    server_prefixes: dict[str, int]

    def __init__(self, kind: str, severity: Severity, message: str, evidence: str,
                 server_prefixes: dict[str, int] | None = None) -> None:
        _set(self, "kind", kind)
        _set(self, "severity", severity)
        _set(self, "message", message)
        _set(self, "evidence", evidence)
        _set(self, "server_prefixes", server_prefixes or {})


def key_label(index: Index) -> str:
    kind = {"primary": "PRIMARY KEY", "unique": "UNIQUE KEY", "index": "KEY"}[index.kind]
    name = "" if index.kind == "primary" else f" {quote(index_name(index))}"
    parts = ", ".join(quote(p.name) + (f"({p.prefix})" if p.prefix is not None else "") for p in index.columns)
    return f"{kind}{name} ({parts})"


def index_name(index: Index) -> str:
    """The key's name: PRIMARY, or its name in the model (as written, else the one the server
    generates: the replayer names unnamed keys, `linter.parse.body.name_unnamed_keys`); the first
    column's name only for a key built outside a replay."""
    if index.kind == "primary":
        return "PRIMARY"
    return index.name or index.columns[0].name


def _type_of(table: Table, name: str) -> str:
    column = table.column(name)
    return column.type.upper() if column is not None else ""


def _per_char(part: sizes.KeyPartWidth) -> int:
    charset = part.charset
    return (charset.maxlen or 1) if charset is not None and charset.charset != "binary" else 1


def key_refusal(target: Target) -> Callable[[Table, Index, Schema | None], KeyProblem | None]:
    """The decision the replay takes from this check (`linter.server.key_refusals`): the problem
    (its `message` says why) when `target` refuses the key, else None. The replay keeps it in the
    refusal's record, where `IndexKeyLength.run` reads it."""
    def refusal(table: Table, index: Index, schema: Schema | None) -> KeyProblem | None:
        problem = key_problem(table, index, target, schema)
        return problem if problem is not None and problem.kind == "refused" else None
    return refusal


def key_problem(table: Table, index: Index, target: Target, schema: Schema | None = None,
                *, innodb: bool | None = None) -> KeyProblem | None:
    """The one decision: what the target does with this key, when that is a problem. None for a
    key within the limits, a FULLTEXT or SPATIAL key, a key with a part innolint cannot measure (an
    expression), and keys of non-InnoDB tables (unless `innodb` asks to judge it as InnoDB)."""
    if not (table.is_innodb if innodb is None else innodb) or index.kind not in ("primary", "unique", "index"):
        return None
    index = as_written(index)  # the key the DDL wrote, not the prefix MariaDB cut it to (the model's)
    if not may_be_too_long(index, table.body.columns.get):
        return None  # (most keys: measured, they are within every limit on every target)
    width = sizes.key_width(table, index, target, schema)
    fmt = sizes.row_format(table)
    part_limit = sizes.key_part_limit(fmt)
    label = key_label(index)
    lobs = [p for p in width.parts if p.bytes is None and p.note.endswith("without a prefix length")]
    if any(p.bytes is None for p in width.parts if p not in lobs):
        return None  # an expression, a missing column or a type of unknown size: nothing to say
    decide = _mariadb if target.is_mariadb else _mysql
    problem = decide(table, index, target, width, fmt, label, lobs)
    if problem is None:
        return None
    # the evidence is written only for a key at fault (most keys are not: it is most of the cost)
    evidence = (f"{width.explain()}; InnoDB's limits in {fmt.upper()} rows: {part_limit:,} bytes per part, "
                f"{sizes.MAX_KEY_BYTES:,} per key (bytes per character from each column's character set)")
    return KeyProblem(problem.kind, problem.severity, problem.message, evidence, problem.server_prefixes)


def _mysql(table: Table, index: Index, target: Target, width: sizes.KeyWidth, fmt: sizes.RowFormat, label: str,
           lobs: list[sizes.KeyPartWidth]) -> KeyProblem | None:
    json = [p for p in lobs if _type_of(table, p.column) == "JSON"]
    if json:
        return KeyProblem("refused", "error", f"{table.name}: {label}: {json[0].column} is a JSON column; "
                          f"{target.label} refuses the key: ERROR 3152 (42000): JSON column '{json[0].column}' supports "
                          "indexing only via generated columns on a specified JSON path.", "")
    if lobs:
        return KeyProblem("refused", "error", f"{table.name}: {label}: {lobs[0].column} is a TEXT/BLOB column without a "
                          f"prefix length; {target.label} refuses the key: {no_prefix_error(lobs[0].column)}", "")
    part_limit = sizes.key_part_limit(fmt)
    over = [p for p in width.parts if (p.bytes or 0) > part_limit]
    if not over and width.bytes <= sizes.MAX_KEY_BYTES:
        return None
    limit = part_limit if over else sizes.MAX_KEY_BYTES
    what = (f"{over[0].column} takes {over[0].bytes:,} bytes, over the {part_limit:,} bytes a key part may take in "
            f"{fmt.upper()} rows" if over else f"the key takes {width.bytes:,} bytes, over {sizes.MAX_KEY_BYTES:,}")
    lenient = " (without strict sql_mode a non-unique key is cut to a prefix, with a warning)" if index.kind == "index" else ""
    return KeyProblem("refused", "error", f"{table.name}: {label}: {what}; {target.label} refuses it under the default "
                      f"strict sql_mode{lenient}: {too_long_error(limit)}", "")


def _mariadb(table: Table, index: Index, target: Target, width: sizes.KeyWidth, fmt: sizes.RowFormat, label: str,
             lobs: list[sizes.KeyPartWidth]) -> KeyProblem | None:
    limit = sizes.MAX_KEY_BYTES
    cut: dict[str, int] = {}
    total = 0
    parts_after: list[int] = []
    for part in width.parts:
        nbytes = part.bytes
        if nbytes is None and index.kind == "index" and _type_of(table, part.column) in ("TINYTEXT", "TINYBLOB"):
            nbytes = 255 * _per_char(part)  # the whole column, which MariaDB writes as a 255-character prefix
        if nbytes is None or nbytes > limit:  # over the server's part limit (a TEXT without prefix: unbounded)
            if index.kind == "primary":
                error = no_prefix_error(part.column) if nbytes is None else too_long_error(limit)
                return KeyProblem("refused", "error", f"{table.name}: {label}: {part.column} takes "
                                  f"{'an unbounded number of' if nbytes is None else format(nbytes, ',')} bytes, over "
                                  f"{limit:,}; {target.label} refuses the PRIMARY KEY: {error}", "")
            if index.kind == "unique":
                return _hashed(table, target, label, part.column, index.btree)
            chars = limit // _per_char(part)
            cut[part.column] = chars
            nbytes = chars * _per_char(part)
        total += nbytes
        parts_after.append(nbytes)
    if total > limit:
        if index.kind == "unique":
            return _hashed(table, target, label, None, index.btree)
        return KeyProblem("refused", "error", f"{table.name}: {label}: the key takes {total:,} bytes"
                          + (" after MariaDB cuts " + ", ".join(f"{c} to {n} characters" for c, n in cut.items()) if cut else "")
                          + f", over {limit:,}; {target.label} refuses it: {too_long_error(limit)}", "")
    if not sizes.has_large_prefix(fmt):
        over = [(p.column, n) for p, n in zip(width.parts, parts_after) if n > sizes.MAX_KEY_PART_BYTES_ANTELOPE]
        if over:
            return KeyProblem("refused", "error", f"{table.name}: {label}: {over[0][0]} takes {over[0][1]:,} bytes, over "
                              f"the 767 bytes a key part may take in {fmt.upper()} rows; {target.label} refuses it: "
                              f"{COLUMN_TOO_LARGE_ERROR}", "")
    if cut:
        written = ", ".join(f"{quote(c)}({n})" for c, n in cut.items())
        return KeyProblem("truncated", "warning", f"{table.name}: {label}: longer than the {limit:,} bytes a key part may "
                          f"take; {target.label} does not refuse it but cuts it to a prefix with only a Note "
                          f"({too_long_error(limit).replace('ERROR', 'Note')}): the key becomes {written}, a different "
                          "index than the one written (it cannot cover a query or give ORDER BY its order), and MySQL "
                          "refuses the same statement.", "", cut)
    return None


def _hashed(table: Table, target: Target, label: str, column: str | None, btree: bool = False) -> KeyProblem:
    what = f"{column} takes more than {sizes.MAX_KEY_BYTES:,} bytes" if column else f"the key takes more than {sizes.MAX_KEY_BYTES:,} bytes"
    if btree:  # `USING BTREE` asks for a B-tree: MariaDB makes no hash of it, it refuses the key
        return KeyProblem("refused", "error", f"{table.name}: {label}: {what}; written USING BTREE, {target.label} "
                          f"cannot make it a hash and refuses it: {too_long_error(sizes.MAX_KEY_BYTES)}", "")
    return KeyProblem("hashed", "warning", f"{table.name}: {label}: {what}; {target.label} does not refuse it but makes "
                      "it a hash-based unique constraint (UNIQUE ... USING HASH, a hidden hash column) without a word: "
                      "the key enforces uniqueness but serves no range scan or ORDER BY, a foreign key cannot use it, "
                      f"and MySQL refuses the same statement ({too_long_error(sizes.MAX_KEY_BYTES)}).", "")


# --- the fix -------------------------------------------------------------------------------------
_PREFIXABLE = frozenset({"CHAR", "VARCHAR", "BINARY", "VARBINARY"} | sizes.TEXT_TYPES - {"ENUM", "SET"} | sizes.BINARY_TYPES)


def _with(table: Table, *, indexes: list[Index] | None = None, columns: dict | None = None, **options: object) -> Table:
    body = TableBody(table.columns if columns is None else columns, table.indexes if indexes is None else indexes,
                     table.foreign_keys, replace(table.options, **options) if options else table.options)
    return Table(table.schema, table.name, body, table.defined, table.changed, table.temporary, table.origin)


def fitting_parts(table: Table, index: Index, target: Target, schema: Schema | None) -> tuple[IndexColumn, ...] | None:
    """The key's parts with prefixes (characters) that fit the row format's limits: parts over the
    part limit cut to it, then the longest parts shortened until the key fits 3,072 bytes.
    None when a part that is too long cannot take a prefix (a number, a date)."""
    fmt = sizes.row_format(table)
    part_limit = sizes.key_part_limit(fmt)
    width = sizes.key_width(table, index, target, schema)
    widths: list[list] = []  # [part, bytes, per_char]
    for part, measured in zip(index.columns, width.parts):
        column = table.column(part.name)
        per_char = _per_char(measured)
        nbytes = measured.bytes if measured.bytes is not None else (1 << 30)
        prefixable = column is not None and column.type.upper() in _PREFIXABLE
        if nbytes > part_limit:
            if not prefixable:
                return None
            nbytes = part_limit // per_char * per_char
        widths.append([part, nbytes, per_char, prefixable])
    while sum(w[1] for w in widths) > sizes.MAX_KEY_BYTES:
        excess = sum(w[1] for w in widths) - sizes.MAX_KEY_BYTES
        longest = max((w for w in widths if w[3]), key=lambda w: w[1], default=None)
        if longest is None or longest[1] <= longest[2]:
            return None
        chars = max(1, (longest[1] - excess) // longest[2])
        longest[1] = chars * longest[2]
    parts = []
    for part, nbytes, per_char, _ in widths:
        measured_bytes = next(p.bytes for p, c in zip(width.parts, index.columns) if c is part)
        if measured_bytes is not None and nbytes >= measured_bytes and part.prefix is None:
            parts.append(part)
        else:
            parts.append(replace(part, prefix=nbytes // per_char))
    return tuple(parts)


def _parts_sql(parts: tuple[IndexColumn, ...]) -> str:
    return ", ".join(quote(p.name) + (f"({p.prefix})" if p.prefix is not None else "") + (" DESC" if p.descending else "")
                     for p in parts)


def key_fix(table: Table, index: Index, target: Target, schema: Schema | None, *, innodb: bool | None = None,
            locked: frozenset[str] = frozenset()) -> tuple[list[str], str] | None:
    """ALTER TABLE clauses that make the key fit, and a sentence on what they change; None when
    innolint has none. ROW_FORMAT=DYNAMIC when that is enough (a 767-byte part limit); a
    non-unique key gets prefixes; a UNIQUE or PRIMARY key cannot be a prefix without enforcing
    something else, so its string columns are shortened to lengths that fit."""
    original, index = index, as_written(index)
    if not sizes.has_large_prefix(sizes.row_format(table)):
        dynamic = _with(table, row_format="DYNAMIC")
        if key_problem(dynamic, index, target, schema, innodb=innodb) is None:
            return ["ROW_FORMAT=DYNAMIC"], "ROW_FORMAT=DYNAMIC takes key parts up to 3,072 bytes."
    parts = fitting_parts(table, index, target, schema)
    if parts is None:
        return None
    name = index_name(index)
    drop = "DROP PRIMARY KEY" if index.kind == "primary" else f"DROP INDEX {quote(name)}"
    if index.kind == "index":
        clauses = [drop, f"ADD INDEX {quote(name)} ({_parts_sql(parts)})"]
        fixed = _with(table, indexes=[replace(i, columns=parts) if i is original else i for i in table.indexes])
        if key_problem(fixed, fixed.indexes[table.indexes.index(original)], target, schema, innodb=innodb) is not None:
            return None
        return clauses, "A prefix key: it finds rows by the first characters and reads the row for the rest."
    # UNIQUE / PRIMARY: shorten the columns instead (values longer than that must go first)
    from linter.rules.column_sql import kept_definition  # the one way a MODIFY is written

    columns = dict(table.columns)
    clauses = []
    shortened = []
    joined = locked | {n.lower() for k in table.foreign_keys for n in k.columns}
    for old, new in zip(index.columns, parts):
        column = table.column(old.name)
        if column is not None and new.prefix is not None and column.name.lower() in joined:
            return None  # a foreign key joins it: its type must stay (MariaDB: ERROR 1832/1833)
        if new.prefix is None or column is None or old.prefix is not None or column.type.upper() not in ("CHAR", "VARCHAR", "BINARY", "VARBINARY"):
            if new.prefix != old.prefix:
                return None  # a TEXT prefix or an existing prefix would change what is unique
            continue
        columns[column.name.lower()] = replace(column, params=(str(new.prefix),))
        clauses.append(f"MODIFY COLUMN {kept_definition(columns[column.name.lower()], target)}")
        shortened.append(f"{column.name} to {new.prefix} characters")
    fixed = _with(table, columns=columns)
    if not clauses or key_problem(fixed, index, target, schema, innodb=innodb) is not None:
        return None
    problem = key_problem(table, index, target, schema, innodb=innodb)
    if problem is not None and problem.kind == "hashed":  # the hash stays until the key is made again
        clauses += [drop, f"ADD UNIQUE KEY {quote(name)} ({_parts_sql(index.columns)})"]
    return clauses, ("Shortens " + ", ".join(shortened) + ": values longer than that must be shortened first "
                     "(SELECT MAX(CHAR_LENGTH(...)) tells); or choose a narrower character set.")
