"""Differential testing against the real server: generated DDL scripts, loaded into MariaDB through
the real `mariadb` client and replayed by innolint; the schema innolint builds must be the
server's, or innolint must have said, at the statement where it lost track, that it could not
follow.

Why a differential test: hand-picked cases find the bug that was reported; a generator over a
few names, whose statements refer to each other, finds the classes nobody thought of (a client
command gluing itself to the next statement, an executable comment the server skips, a temporary
table shadowing a permanent one). The server is the oracle: whatever it does with the text is
right, and the `mariadb` client with `--force` is how such files are loaded.

The parts, used by tests/test_differential.py (a few hundred scripts, fixed seeds) and
scripts/fuzz_differential.py (thousands, random seeds):

- `generate(seed)`: a `Script`, a list of `Unit`s (one statement, client command or DELIMITER
  line each), rendered to the text a user would write. Each unit knows simpler forms of itself,
  for shrinking.
- `ServerRunner`: loads scripts into fresh databases of one server (several clients at once),
  records which statements the server rejected, and reads back its truth (`server_view`):
  information_schema TABLES, COLUMNS, STATISTICS, and InnoDB's clustered index from
  INNODB_SYS_INDEXES (TYPE bit 1; GEN_CLUST_INDEX is the hidden row id).
- `InnolintRunner`: innolint's model of the same text, as the same `View`, and its diagnostics,
  with the findings that say the server refuses the statement (`refused_keys`: refused-ddl's, and
  index-key-length's for a key, which the replay refuses as the server does,
  linter/server/key_refusals.py): the finding is innolint saying so at that statement.
- `Differ`: compares them; on a difference, finds the first unit after which the prefix of the
  script already differs (all prefixes loaded at once), looks for a diagnostic there, and shrinks
  a silent difference to a minimal script (dropping units, then simplifying each).
- `KNOWN_CLASSES`: the mismatch classes known today, each recognised by a predicate on the
  shrunk reproduction, so that a new class fails the test and a fixed class can be struck off.

What is compared, per permanent table (temporary tables end with the client's session and are
compared through their effect on the permanent ones): the name (case-sensitively, as the server
reports it under lower_case_table_names=0), the engine, the columns (name, order, base type,
character length, unsigned, nullable), the indexes (kind, columns in order with their prefix
length; the name where innolint knows one) and, for InnoDB tables, the clustered index (the
PRIMARY KEY, the UNIQUE key InnoDB chose, or the hidden row id). A table innolint made by
CREATE TABLE ... SELECT is compared by name, engine and clustered index only: innolint does not
claim to know its columns.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import tempfile
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

TARGET = "mariadb-10.11"

# --- scripts -----------------------------------------------------------------------------------


@dataclass
class RenderState:
    """What rendering a unit depends on: the client's delimiter so far and the databases' names."""

    main: str
    other: str
    delimiter: str = ";"


@dataclass(frozen=True)
class Unit:
    """One piece of a script: a statement (head + parts joined by sep + tail, then its end), a
    DELIMITER line (`delimiter` set), or a client command line (`end` "own").

    `end`: "delim" (the delimiter in force when rendered), "\\g", "\\G", "\\c" (the mysql client
    clears the buffer: the statement is never sent), "none" (a missing delimiter) or "own" (the
    text carries its own end). `noise`: seed of the comments and keyword case inserted between
    tokens (0: none). `lead`: comment lines before it; `trail`: what follows the end on its line.
    `{main}` and `{other}` in the text stand for the script's two databases.
    """

    kind: str
    head: str
    parts: tuple[str, ...] = ()
    tail: str = ""
    sep: str = ", "
    end: str = "delim"
    delimiter: str | None = None
    noise: int = 0
    lead: str = ""
    trail: str = ""
    #: parts that must stay (a CREATE TABLE needs a column): shrinking never drops below this
    min_parts: int = 0
    #: kept by shrinking: a script's `USE {main}`, without which its qualified names would name a
    #: database innolint cannot know the client started in
    pinned: bool = False

    def render(self, state: RenderState) -> str:
        if self.delimiter is not None:
            state.delimiter = self.delimiter
            text = self.head
        else:
            text = self.head + self.sep.join(self.parts) + self.tail
            if self.noise:
                text = add_noise(text, self.noise)
            text += {"delim": state.delimiter, "own": "", "none": ""}.get(self.end, self.end)
        text = self.lead + text + self.trail + "\n"
        return (text.replace("{main}", state.main).replace("{other}", state.other)
                .replace("{MAIN}", state.main.upper()).replace("{OTHER}", state.other.upper()))

    def simplifications(self) -> list[tuple[str, int]]:
        """What can be taken away from this unit, one thing each: ("noise", 0), ("lead", 0),
        ("trail", 0), ("end", 0) (a plain delimiter instead of \\g, \\G or none), ("part", i)."""
        found: list[tuple[str, int]] = []
        if self.noise:
            found.append(("noise", 0))
        if self.lead:
            found.append(("lead", 0))
        if self.trail:
            found.append(("trail", 0))
        if self.end in ("\\g", "\\G", "none"):
            found.append(("end", 0))
        if len(self.parts) > max(1, self.min_parts):
            found.extend(("part", i) for i in range(len(self.parts)))
        return found

    def simplify(self, taken: Iterable[tuple[str, int]]) -> Unit:
        """This unit without the things `taken` (from `simplifications`); at least one part stays."""
        taken = set(taken)
        dropped = {i for what, i in taken if what == "part"}
        parts = tuple(p for i, p in enumerate(self.parts) if i not in dropped) or self.parts[:1]
        return replace(self, parts=parts, noise=0 if ("noise", 0) in taken else self.noise,
                       lead="" if ("lead", 0) in taken else self.lead, trail="" if ("trail", 0) in taken else self.trail,
                       end="delim" if ("end", 0) in taken else self.end)


@dataclass(frozen=True)
class Script:
    seed: int
    units: tuple[Unit, ...]

    def render(self, main: str = "d1", other: str = "d2") -> tuple[str, list[tuple[int, int]]]:
        """The text, and each unit's (first line, last line), 1-based."""
        state = RenderState(main, other)
        pieces: list[str] = []
        spans: list[tuple[int, int]] = []
        line = 1
        for unit in self.units:
            text = unit.render(state)
            lines = text.count("\n")
            spans.append((line, line + max(lines, 1) - 1))
            line += lines
            pieces.append(text)
        return "".join(pieces), spans

    def text(self, main: str = "d1", other: str = "d2") -> str:
        return self.render(main, other)[0]

    def with_units(self, units: Iterable[Unit]) -> Script:
        return Script(self.seed, tuple(units))


_KEYWORDS = frozenset(
    "CREATE ALTER DROP RENAME TABLE TEMPORARY IF NOT EXISTS ADD COLUMN MODIFY CHANGE PRIMARY KEY UNIQUE INDEX "
    "ENGINE DEFAULT NULL AUTO_INCREMENT COMMENT ON TO AFTER FIRST INT BIGINT VARCHAR CHAR TEXT DATETIME LIKE "
    "CONSTRAINT".split())
_NOISE_COMMENTS = (" /* c */ ", " /* a;b 'q' */ ", " -- note ;\n", " # it's\n", "\n", " /**/ ", "\t", " /* */ ")


def add_noise(text: str, seed: int) -> str:
    """Comments of every style, line breaks and keyword case between the tokens of `text` (at its
    spaces outside quotes and comments), chosen by `seed`."""
    rng = random.Random(seed)
    out: list[str] = []
    quote = ""
    i = 0
    word = re.compile(r"[A-Za-z_]+")
    while i < len(text):
        ch = text[i]
        if quote:
            out.append(ch)
            if ch == "\\" and quote != "`" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 2
                continue
            if ch == quote:
                quote = ""
            i += 1
            continue
        if ch in "'\"`":
            quote = ch
            out.append(ch)
            i += 1
            continue
        if text.startswith("/*", i):  # an executable comment already there: kept whole
            close = text.find("*/", i)
            close = len(text) if close < 0 else close + 2
            out.append(text[i:close])
            i = close
            continue
        if ch == " " and rng.random() < 0.25:
            out.append(rng.choice(_NOISE_COMMENTS))
            i += 1
            continue
        found = word.match(text, i)
        if found is not None and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_@.")):
            token = found.group()
            if token.upper() in _KEYWORDS and rng.random() < 0.3:
                token = rng.choice((token.lower(), token.capitalize(), "".join(
                    c.upper() if rng.random() < 0.5 else c.lower() for c in token)))
            out.append(token)
            i = found.end()
            continue
        out.append(ch)
        i += 1
    return "".join(out)


# --- the generator -----------------------------------------------------------------------------

TABLE_NAMES = ("t1", "t2", "t3", "t4")
#: what a column or table may say of its character set
CHARSETS = ("CHARACTER SET latin1", "CHARSET utf8mb4", "COLLATE utf8mb4_bin", "CHARSET utf8mb3 COLLATE utf8mb3_bin",
            "CHARACTER SET utf8")
#: an ALTER TABLE's change of character set: the default alone, or every text column (CONVERT TO)
TABLE_CHARSET_CHANGES = (
    "DEFAULT CHARSET=latin1", "CHARACTER SET = utf8mb3", "COLLATE=utf8mb4_unicode_ci", "CONVERT TO CHARACTER SET utf8mb4",
    "CONVERT TO CHARACTER SET latin1", "CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", "CONVERT TO CHARSET utf8",
    "CONVERT TO CHARACTER SET DEFAULT", "CONVERT TO CHARACTER SET binary",
)
CASE_VARIANTS = {"t1": "T1", "t2": "T2"}
COLUMN_NAMES = ("id", "a", "b", "c", "d", "e", "f")
ENGINES = (("InnoDB", 30), ("", 30), ("innodb", 5), ("MyISAM", 8), ("MEMORY", 5), ("Aria", 5), ("INNODB", 2))
LEAD_COMMENTS = ("-- migration step\n", "/* a;\n   b 'quoted' */\n", "# note: it's fine;\n", "--\n",
                 "-- DELIMITER //\n", "/* DROP TABLE t1; */\n", "-- \\g is not here\n")
TRAIL_COMMENTS = (" -- done", " /* ; */", " # x;", " -- it's ok", " /* \\G */")


@dataclass
class GenColumn:
    name: str
    type: str
    not_null: bool
    length: int | None = None  # CHAR/VARCHAR length
    kind: str = "int"  # int, char, text, other


@dataclass
class GenTable:
    """The generator's own rough idea of a table, so that statements refer to what exists. It
    assumes each statement succeeds; it only guides the choices (the server judges)."""

    columns: list[GenColumn]
    keys: list[str] = field(default_factory=list)
    has_pk: bool = False
    engine: str = ""


class Generator:
    """A grammar of DDL over a few names. Most statements are meant to succeed on the server
    (they name tables and columns that exist), some are meant to fail (a second CREATE of one
    name, a column that is not there), and every script mixes in what changes how the text is
    read: client commands, DELIMITER blocks, executable comments, sql_mode, comments."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.tables: dict[tuple[str, str], GenTable] = {}
        self.temps: dict[tuple[str, str], GenTable] = {}
        self.db = "main"  # where unqualified names go
        #: scripts that name their first database explicitly (`USE {main}`) may switch back and
        #: forth; the others never name it (innolint cannot know which database a client starts
        #: in), so once they USE the other database they stay there
        self.explicit = False
        self.ansi_quotes = False
        self.no_backslash_escapes = False
        self.routines = 0
        self.units: list[Unit] = []

    # -- small choices ------------------------------------------------------------------------
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, options: Sequence[Any]) -> Any:
        return self.rng.choice(options)

    def weighted(self, options: Sequence[tuple[Any, float]]) -> Any:
        return self.rng.choices([o for o, _ in options], [w for _, w in options])[0]

    def quote(self, name: str) -> str:
        roll = self.rng.random()
        if roll < 0.15:
            return f"`{name}`"
        if roll < 0.22 and self.ansi_quotes:
            return f'"{name}"'
        return name

    def string(self) -> str:
        """A string literal: with a semicolon, an escaped quote or a trailing backslash, as the
        current sql_mode reads it (ANSI_QUOTES makes "x" a name; NO_BACKSLASH_ESCAPES makes \\
        an ordinary character)."""
        if self.no_backslash_escapes:
            return self.pick(("'C:\\dir\\'", "'a;b'", "'it''s'", "'x'"))
        options = ["'a;b'", "'it\\'s'", "'x'", "'it''s -- no'", "'/* not a comment'"]
        if not self.ansi_quotes:
            options.append('"double;quoted"')
        return self.pick(options)

    def ref(self, key: tuple[str, str]) -> str:
        """How a script names table `key` from the current database."""
        db, name = key
        quoted = self.quote(name)
        if db != self.db:
            return ("{main}." if db == "main" else "{other}.") + quoted
        if db == "other" and self.chance(0.2):
            return "{other}." + quoted
        if db == "main" and self.explicit and self.chance(0.2):
            return "{main}." + quoted
        return quoted

    def existing(self, temps: bool = True) -> list[tuple[str, str]]:
        keys = [k for k in self.tables if self.reachable(k)]
        if temps:
            keys += [k for k in self.temps if self.reachable(k)]
        return keys

    def reachable(self, key: tuple[str, str]) -> bool:
        return key[0] == self.db or self.explicit or key[0] == "other"

    def table_key(self, fresh: bool = False, allow_existing: float = 0.1) -> tuple[str, str]:
        """A table to create: mostly a name not taken yet, sometimes one that is."""
        db = self.db
        if self.chance(0.12) and (self.explicit or db == "main"):  # the other database, by its name
            db = "other" if db == "main" else "main"
        names = list(TABLE_NAMES) + [CASE_VARIANTS[n] for n in CASE_VARIANTS if self.chance(0.25)]
        free = [n for n in names if (db, n) not in self.tables]
        if free and (fresh or not self.chance(allow_existing)):
            return db, self.pick(free)
        return db, self.pick(names)

    def target(self, temps: bool = True, missing: float = 0.06) -> tuple[str, str] | None:
        """An existing table to change, or (rarely) one that is not there."""
        keys = self.existing(temps)
        if not keys or self.chance(missing):
            return (self.db, self.pick(TABLE_NAMES + ("T1", "nope")))
        return self.pick(keys)

    def lookup(self, key: tuple[str, str]) -> GenTable | None:
        return self.temps.get(key) or self.tables.get(key)

    # -- columns and keys ---------------------------------------------------------------------
    def column(self, name: str, pk_candidate: bool = False) -> tuple[str, GenColumn]:
        kind, type_text, length = self.weighted((
            (("int", "INT", None), 14), (("int", "INT UNSIGNED", None), 4), (("int", "BIGINT", None), 6),
            (("int", "SMALLINT", None), 2), (("int", "TINYINT(1)", None), 2), (("int", "INTEGER", None), 1),
            (("int", "BOOL", None), 1), (("char", "VARCHAR(8)", 8), 5), (("char", "VARCHAR(32)", 32), 6),
            (("char", "VARCHAR(191)", 191), 3), (("char", "VARCHAR(255)", 255), 2), (("char", "CHAR(4)", 4), 3),
            (("char", "CHAR(36)", 36), 3), (("text", "TEXT", None), 5), (("text", "BLOB", None), 1),
            (("other", "DATETIME", None), 4), (("other", "DATE", None), 1), (("other", "DECIMAL(10,2)", None), 2),
            (("other", "TIMESTAMP", None), 1), (("other", "ENUM('x','y')", None), 1), (("int", "SERIAL", None), 0.4),
            (("char", "VARCHAR(800)", 800), 0.7), (("text", "TINYTEXT", None), 0.5), (("text", "MEDIUMTEXT", None), 0.5),
            (("text", "JSON", None), 0.3), (("text", "TEXT(100)", None), 0.2), (("text", "BLOB(300)", None), 0.2),
            (("char", "VARCHAR(20000)", 20000), 0.2),
        ))
        if kind in ("char", "text") and type_text not in ("BLOB", "BLOB(300)", "JSON") and self.chance(0.1):
            type_text += " " + self.pick(CHARSETS)
        if self.chance(0.04):  # a type in an executable comment: the version decides
            type_text = self.pick(("INT /*!80023 UNSIGNED */", "INT /*M!100301 UNSIGNED */", "/*!50100 BIGINT */"))
        not_null = pk_candidate or self.chance(0.4)
        attrs = [type_text]
        if not_null:
            attrs.append("NOT NULL")
        elif self.chance(0.08):
            attrs.append("NULL")
        if kind == "int" and self.chance(0.15):
            attrs.append("DEFAULT 0")
        elif kind == "char" and self.chance(0.1):
            attrs.append(f"DEFAULT {self.string()}" if not self.no_backslash_escapes else "DEFAULT ''")
        if self.chance(0.1):
            attrs.append(f"COMMENT {self.string()}")
        if self.chance(0.03):
            attrs.append(self.pick(("/*!80023 INVISIBLE */", "/*M!100301 INVISIBLE */", "INVISIBLE")))
        column = GenColumn(name, type_text, not_null or type_text == "SERIAL", length, kind)
        return f"{self.quote(name)} {' '.join(attrs)}", column

    def key_parts(self, columns: list[GenColumn], count: int) -> str:
        chosen = self.rng.sample(columns, min(count, len(columns)))
        parts = []
        for column in chosen:
            name = self.quote(column.name)
            if column.kind == "text":
                parts.append(f"{name}({self.pick((8, 10, 20))})" if not self.chance(0.08) else name)
            elif column.kind == "char" and column.length and self.chance(0.35):
                # a prefix, half the time the column's whole length (the server drops it)
                prefix = column.length if self.chance(0.5) else max(1, column.length // 2)
                parts.append(f"{name}({prefix})")
            else:
                parts.append(name)
        return "(" + ", ".join(parts) + ")"

    def key_name(self, table: GenTable, prefix: str) -> str:
        name = f"{prefix}_{self.pick(('a', 'b', 'c', 'x'))}"
        if name in table.keys and not self.chance(0.15):
            name += str(self.rng.randrange(2, 9))
        return name

    def unique_key(self, table: GenTable, inline_ok: bool = True) -> str:
        cols = [c for c in table.columns if c.kind != "text" or self.chance(0.5)] or table.columns
        if self.chance(0.5):  # on NOT NULL columns: InnoDB may cluster on it
            cols = [c for c in cols if c.not_null] or cols
        parts = self.key_parts(cols, 1 if self.chance(0.7) else 2)
        style = self.rng.randrange(5)
        name = self.key_name(table, "uk")
        table.keys.append(name)
        if style == 0:
            return f"UNIQUE KEY {self.quote(name)} {parts}"
        if style == 1:
            table.keys[-1] = parts[1:].split(",")[0].split("(")[0].strip("`) ")
            return f"UNIQUE {parts}"
        if style == 2:
            return f"UNIQUE INDEX {self.quote(name)} {parts}"
        if style == 3:
            return f"CONSTRAINT {self.quote(name)} UNIQUE {parts}"
        return f"UNIQUE KEY {self.quote(name)} USING BTREE {parts}"

    def plain_key(self, table: GenTable) -> str:
        name = self.key_name(table, "ix")
        table.keys.append(name)
        if self.chance(0.05):
            texts = [c for c in table.columns if c.kind in ("char", "text")]
            if texts:
                return f"FULLTEXT KEY {self.quote(name)} ({self.quote(self.pick(texts).name)})"
        keyword = self.pick(("KEY", "INDEX", "KEY", "KEY"))
        parts = self.key_parts(table.columns, self.pick((1, 1, 2)))
        if self.chance(0.2):  # unnamed: the server names it after its first column (a, a_2, ...)
            first = parts[1:].split(",")[0].split("(")[0].strip("`) ")
            table.keys[-1] = first
            return f"{keyword} {parts}"
        return f"{keyword} {self.quote(name)} {parts}"

    # -- statements ---------------------------------------------------------------------------
    def create_table(self, inner: bool = False) -> Unit | None:
        temporary = not inner and self.chance(0.12)
        key = self.table_key(fresh=temporary and self.chance(0.5))
        if_not_exists = self.chance(0.15)
        names = self.rng.sample(COLUMN_NAMES[1:], self.rng.randrange(1, 5))
        table = GenTable(columns=[])
        parts: list[str] = []
        pk_style = self.weighted((("auto", 30), ("inline", 8), ("composite", 10), ("char", 6), ("none", 46)))
        if pk_style in ("auto", "inline"):
            id_type = self.pick(("INT", "INT UNSIGNED", "BIGINT UNSIGNED", "BIGINT"))
            auto = " AUTO_INCREMENT" if self.chance(0.8) else ""
            inline_pk = " PRIMARY KEY" if pk_style == "inline" else ""
            parts.append(f"{self.quote('id')} {id_type} NOT NULL{auto}{inline_pk}")
            table.columns.append(GenColumn("id", id_type, True))
        for name in names:
            text, column = self.column(name, pk_candidate=pk_style in ("composite", "char") and not table.has_pk
                                        and len(table.columns) < 2)
            if self.chance(0.05):
                text += " UNIQUE"
            parts.append(text)
            table.columns.append(column)
        if pk_style == "auto":
            parts.append("PRIMARY KEY (`id`)" if self.chance(0.5) else "PRIMARY KEY (id)")
            table.has_pk = True
        elif pk_style == "inline":
            table.has_pk = True
        elif pk_style in ("composite", "char"):
            cols = [c for c in table.columns if c.not_null] or table.columns
            parts.append("PRIMARY KEY " + self.key_parts(cols, 2 if pk_style == "composite" else 1))
            table.has_pk = True
        for _ in range(self.weighted(((0, 45), (1, 40), (2, 15)))):
            parts.append(self.unique_key(table))
        for _ in range(self.weighted(((0, 60), (1, 30), (2, 10)))):
            parts.append(self.plain_key(table))
        if self.chance(0.05):  # a key in an executable comment: only some versions run it
            version = self.pick(("/*!50100", "/*!80023", "/*M!100301", "/*M!999999", "/*!99999"))
            cols = [c for c in table.columns if c.not_null and c.kind != "text"]
            if cols:
                parts[-1] += f" {version} , UNIQUE KEY uk_v ({self.quote(self.pick(cols).name)}) */"
        engine = "" if inner else self.weighted(ENGINES)
        table.engine = engine.lower()
        options = []
        if engine:
            options.append(self.pick(("ENGINE=", "ENGINE = ", "engine=", "TYPE=" if self.chance(0.1) else "ENGINE="))
                           + engine)
        if self.chance(0.2):
            options.append(self.pick(("DEFAULT CHARSET=utf8mb4", "CHARSET latin1", "DEFAULT CHARACTER SET=utf8")))
        if self.chance(0.1):
            options.append(f"COMMENT={self.string()}")
        if self.chance(0.08):
            options.append(self.pick(("/*!50100 ROW_FORMAT=DYNAMIC */", "ROW_FORMAT=COMPACT", "AUTO_INCREMENT=5")))
        if self.chance(0.03):
            options.append(self.pick(("/*!80023 ENGINE=MyISAM */", "/*M!100301 ENGINE=MyISAM */",
                                      "/*!50100 ENGINE=MyISAM */")))
        head = "CREATE " + ("TEMPORARY " if temporary else "") + "TABLE " + (
            "IF NOT EXISTS " if if_not_exists else "") + self.ref(key) + " ("
        tail = ")" + ("".join(" " + o for o in options))
        if not (if_not_exists and self.lookup(key) is not None):
            (self.temps if temporary else self.tables)[key] = table
        return Unit("create-temporary" if temporary else "create", head, tuple(parts), tail, min_parts=1)

    def create_like(self) -> Unit | None:
        source = self.target()
        if source is None:
            return None
        temporary = self.chance(0.15)
        key = self.table_key()
        original = self.lookup(source)
        if original is not None:
            copy = GenTable([replace(c) for c in original.columns], list(original.keys), original.has_pk, original.engine)
            (self.temps if temporary else self.tables)[key] = copy
        head = f"CREATE {'TEMPORARY ' if temporary else ''}TABLE {'IF NOT EXISTS ' if self.chance(0.1) else ''}"
        return Unit("create-like", head + f"{self.ref(key)} LIKE {self.ref(source)}")

    def create_select(self) -> Unit | None:
        source = self.target(temps=False)
        if source is None:
            return None
        key = self.table_key()
        original = self.lookup(source)
        self.tables[key] = GenTable([replace(c) for c in original.columns] if original else [])
        extra = self.pick(("", "(PRIMARY KEY (id)) ", "(x INT) ")) if self.chance(0.3) else ""
        return Unit("create-select", f"CREATE TABLE {self.ref(key)} {extra}AS SELECT * FROM {self.ref(source)}")

    def alter_table(self, inner: bool = False) -> Unit | None:
        key = self.target()
        if key is None:
            return None
        table = self.lookup(key) or GenTable([GenColumn("a", "INT", False)])
        actions: list[str] = []
        for _ in range(self.weighted(((1, 60), (2, 30), (3, 10)))):
            action = self.alter_action(key, table)
            if action:
                actions.append(action)
        if not actions:
            return None
        head = "ALTER " + ("ONLINE " if self.chance(0.05) else "") + "TABLE " + (
            "IF EXISTS " if self.chance(0.05) else "") + self.ref(key) + " "
        return Unit("alter", head, tuple(actions), min_parts=1)

    def unused_column(self, table: GenTable) -> str:
        used = {c.name.lower() for c in table.columns}
        free = [n for n in COLUMN_NAMES + ("g", "h") if n not in used]
        return self.pick(free) if free and not self.chance(0.05) else self.pick(COLUMN_NAMES)

    def some_column(self, table: GenTable) -> GenColumn:
        if table.columns and not self.chance(0.05):
            return self.pick(table.columns)
        return GenColumn(self.pick(("zz", "a", "B")), "INT", False)

    def position(self, table: GenTable) -> str:
        roll = self.rng.random()
        if roll < 0.12:
            return " FIRST"
        if roll < 0.25 and table.columns:
            return f" AFTER {self.quote(self.pick(table.columns).name)}"
        return ""

    def alter_action(self, key: tuple[str, str], table: GenTable) -> str | None:
        kind = self.weighted((
            ("add", 16), ("drop", 7), ("modify", 8), ("change", 5), ("rename-column", 4), ("add-pk", 6),
            ("drop-pk", 5), ("add-unique", 9), ("add-index", 6), ("drop-index", 6), ("rename-index", 2),
            ("engine", 5), ("rename", 4), ("default", 3), ("options", 2), ("algorithm", 4),
        ))
        if kind == "add":
            name = self.unused_column(table)
            text, column = self.column(name)
            exists = "IF NOT EXISTS " if self.chance(0.1) else ""
            where = self.position(table)
            table.columns.append(column)
            return f"ADD {self.pick(('COLUMN ', '', 'COLUMN '))}{exists}{text}{where}"
        if kind == "drop":
            column = self.some_column(table)
            table.columns = [c for c in table.columns if c.name != column.name]
            exists = "IF EXISTS " if self.chance(0.1) else ""
            return f"DROP {self.pick(('COLUMN ', ''))}{exists}{self.quote(column.name)}"
        if kind == "modify":
            column = self.some_column(table)
            text, new = self.column(column.name)
            table.columns = [new if c.name == column.name else c for c in table.columns]
            return f"MODIFY {self.pick(('COLUMN ', ''))}{text}{self.position(table)}"
        if kind == "change":
            column = self.some_column(table)
            name = self.unused_column(table) if self.chance(0.7) else column.name
            text, new = self.column(name)
            table.columns = [new if c.name == column.name else c for c in table.columns]
            return f"CHANGE {self.pick(('COLUMN ', ''))}{self.quote(column.name)} {text}{self.position(table)}"
        if kind == "rename-column":
            column = self.some_column(table)
            name = self.unused_column(table)
            column.name = name
            return f"RENAME COLUMN {self.quote(column.name)} TO {self.quote(name)}"
        if kind == "add-pk":
            cols = [c for c in table.columns if c.kind != "text"] or table.columns
            if self.chance(0.6):
                cols = [c for c in cols if c.not_null] or cols
            if not cols:
                return None
            table.has_pk = True
            return "ADD " + self.pick(("", "CONSTRAINT pk ", "")) + "PRIMARY KEY " + self.key_parts(cols, self.pick((1, 1, 2)))
        if kind == "drop-pk":
            table.has_pk = False
            return "DROP PRIMARY KEY"
        if kind == "add-unique":
            if not table.columns:
                return None
            text = self.unique_key(table)
            if self.chance(0.1):
                text = text.replace("UNIQUE KEY", "UNIQUE KEY IF NOT EXISTS", 1)
            return "ADD " + text
        if kind == "add-index":
            if not table.columns:
                return None
            return "ADD " + self.plain_key(table)
        if kind == "drop-index":
            names = table.keys or ["ix_a"]
            name = self.pick(names) if not self.chance(0.1) else "nope"
            if name in table.keys:
                table.keys.remove(name)
            return f"DROP {self.pick(('INDEX', 'KEY', 'INDEX'))} {'IF EXISTS ' if self.chance(0.1) else ''}{self.quote(name)}"
        if kind == "rename-index":
            if not table.keys:
                return None
            old = self.pick(table.keys)
            new = self.key_name(table, "rx")
            table.keys = [new if k == old else k for k in table.keys]
            return f"RENAME {self.pick(('INDEX', 'KEY'))} {self.quote(old)} TO {self.quote(new)}"
        if kind == "engine":
            engine = self.weighted(ENGINES[:1] + ENGINES[3:]) or "InnoDB"
            table.engine = engine.lower()
            return f"ENGINE={engine}"
        if kind == "rename":
            new = self.table_key()
            temps = self.temps if key in self.temps else self.tables
            if key in temps and new[0] == key[0]:
                temps[new] = temps.pop(key)
                return f"RENAME {self.pick(('TO ', 'AS ', ''))}{self.ref(new)}"
            return None
        if kind == "default":
            column = self.some_column(table)
            value = "DROP DEFAULT" if self.chance(0.4) else ("SET DEFAULT 1" if column.kind == "int" else "SET DEFAULT NULL")
            return f"ALTER {self.pick(('COLUMN ', ''))}{self.quote(column.name)} {value}"
        if kind == "options":
            if self.chance(0.3):
                return self.pick(TABLE_CHARSET_CHANGES)
            return self.pick(("COMMENT='changed'", "ROW_FORMAT=DYNAMIC", "AUTO_INCREMENT=100", "DEFAULT CHARSET=utf8mb4"))
        return self.online_clause()

    def online_clause(self) -> str:
        """ALGORITHM= / LOCK= as migrations pin them: the server refuses an ALTER it cannot run so
        (1845, 1846), and innolint must say so (linter/server/online_alter.py)."""
        key = self.pick(("ALGORITHM", "LOCK"))
        values = ("INPLACE", "INSTANT", "NOCOPY", "COPY", "DEFAULT") if key == "ALGORITHM" else (
            "NONE", "SHARED", "EXCLUSIVE", "DEFAULT")
        return key + self.pick(("=", " = ", " ")) + self.pick(values)

    def drop_table(self, inner: bool = False) -> Unit | None:
        temporary = not inner and bool(self.temps) and self.chance(0.3)
        pool = list(self.temps) if temporary else self.existing()
        if not pool or self.chance(0.1):
            pool = [(self.db, n) for n in TABLE_NAMES + ("T1",)]
        keys = list(dict.fromkeys(self.pick(pool) for _ in range(self.pick((1, 1, 1, 2)))))
        for key in keys:
            if key in self.temps:
                del self.temps[key]
            elif not temporary:
                self.tables.pop(key, None)
        if_exists = "IF EXISTS " if self.chance(0.5) else ""
        if self.chance(0.08):
            if_exists = "/*!32312 IF EXISTS*/ "
        return Unit("drop-temporary" if temporary else "drop",
                    f"DROP {'TEMPORARY ' if temporary else ''}TABLE {if_exists}", tuple(self.ref(k) for k in keys),
                    min_parts=1)

    def rename_table(self) -> Unit | None:
        pairs = []
        for _ in range(self.pick((1, 1, 2))):
            source = self.target(missing=0.05)
            if source is None:
                break
            target = self.table_key(fresh=True)
            if self.chance(0.12) and not self.explicit and self.db == "main":
                target = ("other", target[1])
            table = self.temps.pop(source, None) or self.tables.pop(source, None)
            if table is not None:
                self.tables[target] = table
            pairs.append(f"{self.ref(source)} TO {self.ref(target)}")
        if not pairs:
            return None
        return Unit("rename", "RENAME TABLE ", tuple(pairs), min_parts=1)

    def create_index(self) -> Unit | None:
        key = self.target()
        table = self.lookup(key) if key else None
        if key is None or table is None or not table.columns:
            return None
        unique = self.chance(0.4)
        name = self.key_name(table, "cx")
        table.keys.append(name)
        cols = table.columns if not unique else ([c for c in table.columns if c.not_null] or table.columns)
        exists = "IF NOT EXISTS " if self.chance(0.1) else ""
        clause = " " + self.online_clause() if self.chance(0.15) else ""
        return Unit("create-index", f"CREATE {'UNIQUE ' if unique else ''}INDEX {exists}{self.quote(name)} ON "
                                    f"{self.ref(key)} {self.key_parts(cols, self.pick((1, 1, 2)))}{clause}")

    def drop_index(self) -> Unit | None:
        key = self.target()
        table = self.lookup(key) if key else None
        if key is None or table is None or not table.keys:
            return None
        name = self.pick(table.keys)
        table.keys.remove(name)
        exists = "IF EXISTS " if self.chance(0.1) else ""
        return Unit("drop-index", f"DROP INDEX {exists}{self.quote(name)} ON {self.ref(key)}")

    def use(self) -> Unit | None:
        if self.explicit:
            target = "other" if self.db == "main" else "main"
        elif self.db == "main":
            target = "other"
        else:
            return None
        self.db = target
        name = "{" + target + "}"
        if self.chance(0.04):  # the server's database names are case-sensitive: this USE fails
            self.db = "main" if target == "other" else "other"
            return Unit("use-wrong-case", "USE " + name.upper())
        style = self.rng.randrange(5)
        if style == 0:
            return Unit("client-use", f"\\u {name}", end="own")
        if style == 1:
            return Unit("use-no-delimiter", f"use {name}", end="own")
        return Unit("use", f"USE {self.quote(name)}" if style == 2 else f"USE {name}")

    def non_ddl(self) -> Unit:
        text = self.pick((
            f"SET @x = {self.string()}", f"SELECT {self.string()} AS s", "DO 1", "SET NAMES utf8mb4",
            f"INSERT INTO log_missing VALUES ({self.string()})", "SET foreign_key_checks = 0",
            "/*!40101 SET @saved_cs_client = @@character_set_client */", "START TRANSACTION", "COMMIT",
            "SET @a := 1", "SELECT 1 FROM DUAL WHERE 1 = 0", "FLUSH TABLES",
        ))
        return Unit("non-ddl", text)

    def sql_mode(self) -> Unit:
        roll = self.rng.randrange(6)
        if roll == 0:
            self.ansi_quotes, self.no_backslash_escapes = True, False
            return Unit("sql-mode", "SET sql_mode = 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,"
                                    "NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION,ANSI_QUOTES'")
        if roll == 1:
            self.ansi_quotes, self.no_backslash_escapes = False, True
            return Unit("sql-mode", "SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION,"
                                    "NO_BACKSLASH_ESCAPES'")
        if roll == 2:
            self.ansi_quotes = True
            return Unit("sql-mode", "SET sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES')")
        if roll == 3:
            self.no_backslash_escapes = True
            return Unit("sql-mode", "/*!40101 SET @@session.sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES') */")
        self.ansi_quotes = self.no_backslash_escapes = False
        return Unit("sql-mode", self.pick(("SET sql_mode = DEFAULT", "SET SESSION sql_mode = @@GLOBAL.sql_mode")))

    def ddl(self, inner: bool = False) -> Unit | None:
        kind = self.weighted((
            ("create", 30), ("alter", 28), ("drop", 7), ("rename", 5), ("create-index", 6), ("drop-index", 3),
            ("like", 3), ("select", 1.5),
        ))
        if inner:
            kind = self.pick(("create", "create", "alter", "drop"))
        return {
            "create": lambda: self.create_table(inner), "alter": lambda: self.alter_table(inner),
            "drop": lambda: self.drop_table(inner), "rename": self.rename_table, "create-index": self.create_index,
            "drop-index": self.drop_index, "like": self.create_like, "select": self.create_select,
        }[kind]()

    def executable(self, unit: Unit) -> Unit:
        """The statement wrapped whole in an executable comment; the generator's state is kept
        only when MariaDB 10.11 runs it (5-digit versions below 50700, MariaDB versions up to
        its own), else restored."""
        version = self.weighted((("/*!", 3), ("/*!40101 ", 3), ("/*!50001 ", 2), ("/*!50100 ", 4),
                                 ("/*!50717 ", 2), ("/*!80023 ", 3), ("/*!99999 ", 2), ("/*M!100301 ", 4),
                                 ("/*M!999999 ", 2), ("/*!100000 ", 1)))
        return replace(unit, kind="exec-" + version.strip("/*! ") + ":" + unit.kind, head=version + unit.head,
                       tail=unit.tail + " */")

    def block(self) -> list[Unit]:
        """A DELIMITER block: routines (not run), transactions and compound statements (run)."""
        delimiter = self.pick(("//", "$$", ";;", "//"))
        units = [Unit("delimiter", f"DELIMITER {delimiter}" if self.chance(0.7) else f"\\d {delimiter}",
                      delimiter=delimiter)]
        for _ in range(self.pick((1, 1, 2, 3))):
            roll = self.rng.randrange(10)
            if roll in (0, 1):
                saved = (dict(self.tables), dict(self.temps))
                inner = [u for u in (self.ddl(inner=True) for _ in range(self.pick((1, 2)))) if u]
                self.tables, self.temps = saved  # a routine's body runs only when called
                self.routines += 1
                if roll == 0 or not inner:
                    units.append(Unit("routine", f"CREATE PROCEDURE p{self.routines}() BEGIN ",
                                      tuple(_inline(u) for u in inner) or ("SELECT 1",), "; END", sep="; "))
                else:
                    units.append(Unit("routine", f"CREATE FUNCTION f{self.routines}() RETURNS INT DETERMINISTIC BEGIN ",
                                      ("RETURN 1",), "; END", sep="; "))
                if roll == 0 and self.chance(0.1):
                    units.append(Unit("call", f"CALL p{self.routines}()"))
                continue
            inner = [u for u in (self.ddl(inner=True) for _ in range(self.pick((1, 2)))) if u]
            if not inner:
                continue
            parts = tuple(_inline(u) for u in inner)
            if roll == 2:
                units.append(Unit("begin-commit", "BEGIN; ", parts, "; COMMIT", sep="; "))
            elif roll == 3:
                units.append(Unit("begin-not-atomic", "BEGIN NOT ATOMIC ", parts, "; END", sep="; "))
            elif roll == 4:
                units.append(Unit("if-true", "IF 1 THEN ", parts, "; END IF", sep="; "))
            elif roll == 5:
                # a constant innolint evaluates, or a variable it cannot (unset: NULL, so not run)
                condition = self.rng.choice(("0 = 1", "FALSE", "@unset_flag = 1"))
                units.append(Unit("if-false", f"IF {condition} THEN ", parts, "; END IF", sep="; "))
            elif roll == 6:
                units.append(Unit("start-transaction", "START TRANSACTION; ", parts, "; COMMIT", sep="; "))
            elif roll == 9:
                # statements ended by `;` only: a packet the client has not sent yet, which a `\c`
                # throws away, a `\u` runs in another database, a `\d ;` leaves open to the next `;`
                units.extend(replace(u, kind="open-packet:" + u.kind, end=";") for u in inner)
                command = self.rng.randrange(4)
                if command == 0:
                    units.append(Unit("client-clear-packet", "\\c", end="own"))
                elif command == 1:  # (the first database by name only where the script names it: `use`)
                    self.db = ("other" if self.db == "main" else "main") if self.explicit else "other"
                    units.append(Unit("client-use", "\\u {" + self.db + "}", end="own"))
                elif command == 2:
                    units.append(Unit("delimiter", "\\d ;", delimiter=";"))
            else:  # an ordinary statement under the other delimiter
                units.append(inner[0])
        if self.chance(0.9):
            units.append(Unit("delimiter", "DELIMITER ;" if self.chance(0.8) else "\\d ;", delimiter=";"))
        return units

    def dynamic(self) -> list[Unit]:
        key = self.table_key()
        name = key[1]
        self.tables[key] = GenTable([GenColumn("a", "INT", False)])
        if self.chance(0.5):
            return [Unit("dynamic", f"EXECUTE IMMEDIATE 'CREATE TABLE {name} (a INT)'")]
        return [Unit("dynamic", f"SET @s = 'CREATE TABLE {name} (a INT)'"), Unit("dynamic", "PREPARE st FROM @s"),
                Unit("dynamic", "EXECUTE st"), Unit("dynamic", "DEALLOCATE PREPARE st")]

    def view(self) -> list[Unit]:
        name = self.pick(("v1", "v1", "t1", "t2"))
        roll = self.rng.randrange(3)
        if roll == 0:  # mysqldump's stand-in table, then the view that replaces it
            units = [Unit("view-standin", f"/*!50001 CREATE TABLE `{name}` (\n  `x` tinyint NOT NULL\n) ENGINE=MyISAM */")]
            self.tables[(self.db, name)] = GenTable([GenColumn("x", "tinyint", True)], engine="myisam")
            if self.chance(0.7):
                units += [Unit("view-standin", f"/*!50001 DROP TABLE IF EXISTS `{name}`*/"),
                          Unit("view", f"/*!50001 CREATE VIEW `{name}` AS SELECT 1 AS `x` */")]
                self.tables.pop((self.db, name), None)
            return units
        if roll == 1:
            return [Unit("view", f"CREATE {self.pick(('', 'OR REPLACE '))}VIEW {name} AS SELECT 1 AS x")]
        return [Unit("view", f"DROP VIEW IF EXISTS {name}")]

    # -- the script -----------------------------------------------------------------------------
    def statement(self) -> list[Unit]:
        roll = self.rng.random()
        if roll < 0.60:
            unit = self.ddl()
            if unit is None:
                return []
            if self.chance(0.08):
                unit = self.executable(unit)
            return [self.dress(unit)]
        if roll < 0.70:
            return self.block()
        if roll < 0.76:
            unit = self.use()
            return [unit] if unit else []
        if roll < 0.83:
            return [self.dress(self.non_ddl())]
        if roll < 0.87:
            return [self.sql_mode()]
        if roll < 0.90:
            return self.view()
        if roll < 0.915:
            return self.dynamic()
        if roll < 0.96:
            return [self.client_command()]
        if roll < 0.965:
            return [self.alter_database()]
        if roll < 0.98:  # a statement the client clears (\c) or a comment-only line
            unit = self.ddl()
            if unit is None:
                return []
            return [replace(unit, kind="client-clear:" + unit.kind, end="\\c")]
        return [Unit("comment", self.pick(LEAD_COMMENTS).rstrip("\n"), end="own")]

    def alter_database(self) -> Unit:
        """A new default character set for the tables created after it: by name, or the
        client's current database."""
        change = self.pick(("CHARACTER SET utf8mb4", "DEFAULT CHARSET = latin1", "COLLATE utf8mb4_bin",
                            "CHARSET utf8mb3", "COMMENT 'no charset'"))
        name = self.pick(("", "{main} ", "{other} ", "{" + self.db + "} "))
        return Unit("alter-database", f"ALTER {self.pick(('DATABASE', 'SCHEMA'))} {name}{change}")

    def client_command(self) -> Unit:
        return Unit("client-command", self.pick(("\\W", "\\w", "\\p", "\\W ")), end="own")

    def dress(self, unit: Unit) -> Unit:
        """How the statement is written: its end, comments around it, noise between its tokens."""
        roll = self.rng.random()
        end = "delim"
        if roll < 0.06:
            end = "\\g"
        elif roll < 0.10:
            end = "\\G"
        elif roll < 0.14:
            end = "none"  # the delimiter is missing: the next statement is glued to this one
        lead = self.pick(LEAD_COMMENTS) if self.chance(0.12) else ""
        trail = self.pick(TRAIL_COMMENTS) if self.chance(0.1) else ""
        noise = self.rng.randrange(1, 2**31) if self.chance(0.25) else 0
        return replace(unit, end=end, lead=lead, trail=trail, noise=noise)

    def script(self) -> Script:
        if self.chance(0.35):
            self.explicit = True
            self.units.append(Unit("use", "USE {main}", pinned=True) if self.chance(0.7)
                              else Unit("client-use", "\\u {main}", end="own", pinned=True))
        count = self.rng.randrange(4, 18)
        while len(self.units) < count:
            self.units.extend(self.statement())
        if self.chance(0.02):
            self.units.append(Unit("unterminated", "CREATE TABLE t9 (a int COMMENT 'oops)"))
            self.units.extend(self.statement())
        if self.chance(0.015):
            self.units.append(Unit("quit", "\\q", end="own"))
            self.units.extend(self.statement())
        return Script(self.seed, tuple(self.units))


def _inline(unit: Unit) -> str:
    """A unit's statement text without its end, for the body of a block."""
    return unit.head + unit.sep.join(unit.parts) + unit.tail


def generate(seed: int) -> Script:
    """The script of `seed`: the same text for the same seed, on every machine."""
    return Generator(seed).script()


# --- what is compared -------------------------------------------------------------------------

#: type names as information_schema.COLUMNS.DATA_TYPE spells them
_TYPE_SYNONYMS = {"json": "longtext", "integer": "int", "bool": "tinyint", "boolean": "tinyint", "serial": "bigint", "dec": "decimal",
                  "numeric": "decimal", "fixed": "decimal", "character": "char", "real": "double"}
_CHAR_TYPES = frozenset({"char", "varchar"})


@dataclass(frozen=True)
class ColumnFacts:
    name: str
    type: str  # DATA_TYPE, lower case
    length: int | None  # for CHAR and VARCHAR
    unsigned: bool
    nullable: bool
    #: CHARACTER_SET_NAME: the character set of a text column (None: a column that holds no text)
    charset: str | None = None

    def __str__(self) -> str:
        length = f"({self.length})" if self.length is not None else ""
        charset = f" {self.charset}" if self.charset is not None else ""
        return (f"{self.name} {self.type}{length}{charset}{' unsigned' if self.unsigned else ''}"
                f"{'' if self.nullable else ' NOT NULL'}")


@dataclass(frozen=True)
class IndexFacts:
    name: str | None  # None: innolint does not know the name the server gave it
    kind: str  # primary, unique, index, fulltext, spatial
    parts: tuple[tuple[str, int | None], ...]  # (column, prefix length), column in lower case

    def shape(self) -> tuple[str, tuple[tuple[str, int | None], ...]]:
        return self.kind, self.parts

    def __str__(self) -> str:
        cols = ", ".join(f"{c}({p})" if p is not None else c for c, p in self.parts)
        return f"{self.kind} {self.name or '?'} ({cols})"


@dataclass(frozen=True)
class TableFacts:
    engine: str  # lower case
    columns: tuple[ColumnFacts, ...]
    indexes: tuple[IndexFacts, ...]
    #: InnoDB only: the clustered index's (kind, parts), or None for the hidden row id
    clustered: tuple[str, tuple[tuple[str, int | None], ...]] | None
    #: innolint's CREATE TABLE ... SELECT: columns and keys not claimed
    partial: bool = False


#: (database, table name) -> facts
View = dict[tuple[str, str], TableFacts]


@dataclass(frozen=True)
class Difference:
    """One way the two views differ: `kind` names the part (only-server, only-innolint, engine,
    columns, indexes, clustered), `detail` says how."""

    kind: str
    table: str
    detail: str
    server: TableFacts | None = None
    innolint: TableFacts | None = None

    def __str__(self) -> str:
        return f"{self.kind} {self.table}: {self.detail}"


def without_charsets(view: View) -> View:
    """The view with no column's character set: for inputs that cannot say one (Liquibase's XML
    change types write no table options, so a history's `DEFAULT CHARACTER SET` is not in them)."""
    return {key: replace(facts, columns=tuple(replace(c, charset=None) for c in facts.columns))
            for key, facts in view.items()}


def compare(server: View, linted: View) -> list[Difference]:
    """How innolint's view differs from the server's, table by table (empty: they agree)."""
    found: list[Difference] = []
    for key in sorted(set(server) | set(linted)):
        name = ".".join(key)
        truth, model = server.get(key), linted.get(key)
        if model is None:
            found.append(Difference("only-server", name, "the server has this table, innolint does not", truth))
            continue
        if truth is None:
            found.append(Difference("only-innolint", name, "innolint has this table, the server does not", None, model))
            continue
        if truth.engine != model.engine:
            found.append(Difference("engine", name, f"server {truth.engine}, innolint {model.engine}", truth, model))
        if not model.partial:
            if truth.columns != model.columns:
                found.append(Difference("columns", name, f"server [{', '.join(map(str, truth.columns))}], "
                                                         f"innolint [{', '.join(map(str, model.columns))}]",
                                        truth, model))
            if not _same_indexes(truth.indexes, model.indexes):
                found.append(Difference("indexes", name, f"server [{'; '.join(map(str, truth.indexes))}], "
                                                         f"innolint [{'; '.join(map(str, model.indexes))}]",
                                        truth, model))
        if truth.engine == "innodb" and model.engine == "innodb" and truth.clustered != model.clustered:
            found.append(Difference("clustered", name, f"server {_clustered(truth.clustered)}, "
                                                       f"innolint {_clustered(model.clustered)}", truth, model))
    return found


def _clustered(value: tuple[str, tuple[tuple[str, int | None], ...]] | None) -> str:
    if value is None:
        return "hidden row id (GEN_CLUST_INDEX)"
    kind, parts = value
    return f"{kind} ({', '.join(f'{c}({p})' if p is not None else c for c, p in parts)})"


def _same_indexes(truth: tuple[IndexFacts, ...], model: tuple[IndexFacts, ...]) -> bool:
    """The same indexes: named ones by name (case-insensitively, as the server compares them) and
    shape, the ones innolint has no name for by shape only."""
    if len(truth) != len(model):
        return False
    left = list(truth)
    for index in sorted(model, key=lambda i: i.name is None):
        match = next((t for t in left if t.shape() == index.shape()
                      and (index.name is None or (t.name or "").lower() == index.name.lower())), None)
        if match is None:
            return False
        left.remove(match)
    return True


# --- the server's side ----------------------------------------------------------------------------


def scratch_dir() -> str | None:
    """Where the scripts are written for a moment: /dev/shm when there is one (creating a file
    in /tmp on the project's machine takes ~1 ms, a third of linting a script)."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None


_UNSAFE_CLIENT_COMMAND = re.compile(r"\\[!.TeP]|(?im:^\s*(?:system|source|tee|pager|edit)\b)")
_CLIENT_ERROR = re.compile(r"^ERROR(?: (\d+) \([0-9A-Z]+\))? at line (\d+)", re.MULTILINE)


@dataclass
class Loaded:
    """One script on the server: what it left, and the statements it rejected."""

    view: View
    errors: list[tuple[int, int]]  # (line, error code; 0 for a client error)
    seconds: float


class ServerRunner:
    """Loads scripts into fresh databases of one running server through the `mariadb` client
    (`jobs` clients at once), and reads back what they left. `server` is a tests.mariadb.MariaDB."""

    def __init__(self, server: Any, jobs: int = 2, prefix: str = "dt", client: str = "mariadb") -> None:
        self.server = server
        self.jobs = max(1, jobs)
        self.prefix = prefix
        self.client = client
        self.loads = 0
        self.seconds = 0.0
        self._batch = 0
        self._dir = tempfile.mkdtemp(prefix="innolint-diff-", dir=scratch_dir())
        self._removal = weakref.finalize(self, shutil.rmtree, self._dir, True)
        self._connection: Any = None
        self.lower_case_table_names = int(self._sql("SELECT @@lower_case_table_names")[0][0])
        self.version = str(self._sql("SELECT VERSION()")[0][0])

    def _sql(self, statements: str) -> list[tuple[Any, ...]]:
        """Run statements on the runner's own connection (kept open: a connection costs ~3 ms);
        the rows of the last one that returns any."""
        from pymysql.constants import CLIENT

        if self._connection is None:
            self._connection = self.server.connect(client_flag=CLIENT.MULTI_STATEMENTS)
        rows: list[tuple[Any, ...]] = []
        with self._connection.cursor() as cursor:
            cursor.execute(statements)
            while True:
                if cursor.description is not None:
                    rows = list(cursor.fetchall())
                if not cursor.nextset():
                    break
        return rows

    def close(self) -> None:
        """Close the runner's connection and remove its scratch directory."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        self._removal()

    def load(self, texts: Sequence[Callable[[str, str], str]]) -> list[Loaded]:
        """Each script (a function of its two database names giving its text) loaded into a pair
        of fresh databases; the databases are dropped afterwards."""
        started = time.monotonic()
        self._batch += 1
        names = [(f"{self.prefix}{self._batch}_{n}", f"{self.prefix}{self._batch}_{n}_o") for n in range(len(texts))]
        databases = [db for pair in names for db in pair]
        self._sql(";".join(f"CREATE DATABASE `{db}`" for db in databases))
        try:
            paths = []
            for (main, other), text in zip(names, texts):
                path = os.path.join(self._dir, f"{main}.sql")
                body = text(main, other)
                self.check_safe(body)
                with open(path, "w", encoding="utf-8", newline="") as handle:
                    handle.write(body)
                paths.append(path)
            with ThreadPoolExecutor(self.jobs) as pool:
                outcomes = list(pool.map(self._run_client, paths, [main for main, _ in names]))
            views = self._read(databases, names)
        finally:
            self._sql(";".join(f"DROP DATABASE IF EXISTS `{db}`" for db in databases))
        self.loads += len(texts)
        elapsed = time.monotonic() - started
        self.seconds += elapsed
        return [Loaded(view, errors, elapsed / len(texts)) for view, errors in zip(views, outcomes)]

    @staticmethod
    def check_safe(text: str) -> None:
        """Refuse a script holding a client command that reaches outside the server (`\\!` runs
        a shell, `\\.` and `source` read a file, `\\T` and `tee` write one, `\\e` starts an
        editor, `\\P` a pager): the generator writes none, and a script never should."""
        if _UNSAFE_CLIENT_COMMAND.search(text):
            raise ValueError(f"unsafe mysql client command in a script: {_UNSAFE_CLIENT_COMMAND.search(text)}")

    def _run_client(self, path: str, database: str) -> list[tuple[int, int]]:
        socket = self.server.socket
        with open(path, "rb") as script:
            run = subprocess.run([self.client, "--no-defaults", "-u", self.server.user, "-S", socket, "--force",
                                  database], stdin=script, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 timeout=120, check=False)
        os.unlink(path)
        stderr = run.stderr.decode("utf-8", "replace")
        return [(int(m.group(2)), int(m.group(1) or 0)) for m in _CLIENT_ERROR.finditer(stderr)]

    def _read(self, databases: list[str], names: list[tuple[str, str]]) -> list[View]:
        """The server's truth for every database of a batch, in four queries; read again when the
        server reports an internal error (information_schema can meet a table that a session
        ending at that moment is still dropping: error 1615 and its like)."""
        import pymysql

        for attempt in range(3):
            try:
                return self._read_once(databases, names)
            except pymysql.err.InternalError as error:
                if attempt == 2:
                    raise AssertionError(f"reading the server's tables failed three times: {error}") from error
                time.sleep(0.1)
        raise AssertionError("unreachable")

    def _read_once(self, databases: list[str], names: list[tuple[str, str]]) -> list[View]:
        listed = ", ".join(f"'{db}'" for db in databases)
        tables = self._sql(f"SELECT TABLE_SCHEMA, TABLE_NAME, ENGINE FROM information_schema.TABLES "
                                 f"WHERE TABLE_SCHEMA IN ({listed}) AND TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED')")
        columns = self._sql(
            "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH, COLUMN_TYPE, "
            f"IS_NULLABLE, CHARACTER_SET_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA IN ({listed}) "
            "ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION")
        statistics = self._sql(
            "SELECT TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, NON_UNIQUE, COLUMN_NAME, SUB_PART, INDEX_TYPE "
            f"FROM information_schema.STATISTICS WHERE TABLE_SCHEMA IN ({listed}) "
            "ORDER BY TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX")
        clustered = self._sql(
            "SELECT t.NAME, i.NAME FROM information_schema.INNODB_SYS_TABLES t "
            "JOIN information_schema.INNODB_SYS_INDEXES i ON i.TABLE_ID = t.TABLE_ID WHERE i.TYPE & 1 AND ("
            + " OR ".join(f"t.NAME LIKE '{db}/%'" for db in databases) + ")")
        engine = {(str(s), str(t)): str(e or "").lower() for s, t, e in tables}
        cols: dict[tuple[str, str], list[ColumnFacts]] = {}
        for schema, table, name, data_type, length, column_type, nullable, charset in columns:
            char = str(data_type).lower() in _CHAR_TYPES
            cols.setdefault((str(schema), str(table)), []).append(ColumnFacts(
                str(name), str(data_type).lower(), int(length) if char and length is not None else None,
                "unsigned" in str(column_type).lower(), nullable == "YES", str(charset) if charset else None))
        keys: dict[tuple[str, str], dict[str, tuple[str, list[tuple[str, int | None]]]]] = {}
        for schema, table, index, non_unique, column, sub_part, index_type in statistics:
            kind = ("primary" if index == "PRIMARY" else "fulltext" if index_type == "FULLTEXT"
                    else "spatial" if index_type == "SPATIAL" else "index" if int(non_unique) else "unique")
            entry = keys.setdefault((str(schema), str(table)), {}).setdefault(str(index), (kind, []))
            entry[1].append((str(column).lower(), int(sub_part) if sub_part is not None else None))
        on_row_id: dict[tuple[str, str], str] = {}
        for full, index in clustered:
            schema, _, table = str(full).partition("/")
            on_row_id[(schema, re.split("#[Pp]#", table)[0])] = str(index)
        views: list[View] = []
        for main, other in names:
            view: View = {}
            for db in (main, other):
                for (schema, table), eng in engine.items():
                    if schema != db:
                        continue
                    indexes = tuple(IndexFacts(n, k, tuple(p)) for n, (k, p) in keys.get((schema, table), {}).items())
                    clustered_name = on_row_id.get((schema, table))
                    cluster = None
                    if clustered_name is not None and clustered_name != "GEN_CLUST_INDEX":
                        found = next((i for i in indexes if i.name == clustered_name), None)
                        cluster = found.shape() if found else ("?", ((clustered_name, None),))
                    view[("main" if db == main else "other", table)] = TableFacts(
                        eng, tuple(cols.get((schema, table), ())), indexes, cluster)
            views.append(view)
        return views


# --- innolint's side ------------------------------------------------------------------------------


def innolint_context(lower_case_table_names: int = 0) -> Any:
    """The CheckContext for the target the server is (MariaDB 10.11). When innolint can be told
    the server's lower_case_table_names (a target/config property), it is."""
    import inspect

    from linter.rules.checkapi import CheckContext
    from linter.schema.target import Target

    target = Target.parse(TARGET)
    options: dict[str, Any] = {}
    if "lower_case_table_names" in inspect.signature(CheckContext.__init__).parameters:
        options["lower_case_table_names"] = lower_case_table_names
    return CheckContext(target=target, **options)


@dataclass
class Linted:
    view: View
    diagnostics: list[tuple[int, int, str, str]]  # (line, end line, rule, message)


class InnolintRunner:
    """innolint's model of a script, in-process: one Engine (and its parse cache) for all.

    The server loads a script into a pair of databases that exist before it runs; innolint is
    told so the way a dump says it, by a prelude file replayed first (`CREATE DATABASE` of both,
    no USE: the client's first database stays one innolint cannot name). So innolint knows every
    database the script can reach, as a user's schema dump or migration history names its own:
    a name that differs from one of them only in case (`USE D2`) is one the server does not have."""

    def __init__(self, lower_case_table_names: int = 0) -> None:
        from linter.engine import Engine

        from checks.index_key_length import IndexKeyLength
        from checks.refused_ddl import RefusedDdl

        self.context = innolint_context(lower_case_table_names)
        # the one check that speaks of statements: a key the server refuses (1071, 1170, 1709) is
        # reported by index-key-length at the statement the replay refused for it
        self.engine = Engine(self.context, checks=[IndexKeyLength(), RefusedDdl()])
        self._dir = tempfile.mkdtemp(prefix="innolint-diff-lint-", dir=scratch_dir())
        self._removal = weakref.finalize(self, shutil.rmtree, self._dir, True)
        self.seconds = 0.0

    def close(self) -> None:
        """Remove the scratch directory (also done when the runner is collected or at exit)."""
        self._removal()

    def lint(self, text: str, main: str = "d1", other: str = "d2") -> Linted:
        from linter.engine import Unit as LintUnit

        started = time.monotonic()
        path = os.path.join(self._dir, "script.sql")
        prelude = os.path.join(self._dir, f"databases-{main}-{other}.sql")
        if not os.path.exists(prelude):
            with open(prelude, "w", encoding="utf-8") as handle:
                handle.write(f"CREATE DATABASE `{main}`;\nCREATE DATABASE `{other}`;\n")
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        result = self.engine.lint_unit(LintUnit([prelude, path]), self.context)
        self.seconds += time.monotonic() - started
        diagnostics = [(d.line or 0, max(d.end_line or 0, d.line or 0), d.rule, d.message) for d in result.diagnostics
                       if d.path == path]
        diagnostics += refused_keys(f for f in result.findings if f.path == path)
        return Linted(model_view(result.model, main, other), diagnostics)


@dataclass
class Judged:
    """A hand-written script judged by the server: how the views differ, the lines the server
    refused, and innolint's diagnostics by line."""

    differences: list[Difference]
    refused: dict[int, int]  # line -> the server's error code
    said: dict[int, str]  # line -> innolint's message (refused-ddl, replay-error or parse-error)

    def faithful(self) -> bool:
        """The same schema, and innolint reported exactly the statements the server refused."""
        return not self.differences and set(self.refused) == set(self.said)

    def __str__(self) -> str:
        return (f"differences: {[str(d) for d in self.differences]}\nserver refused: {self.refused}\n"
                f"innolint said: {self.said}")


@contextmanager
def judging_sides(mariadb: Any, prefix: str) -> Iterator[tuple[ServerRunner, InnolintRunner]]:
    """A server runner (one job, databases named from `prefix`) and an innolint runner for `judge`,
    closed after use (a module-scoped fixture of the hand-written script tests)."""
    server, lint = ServerRunner(mariadb, jobs=1, prefix=prefix), InnolintRunner()
    try:
        yield server, lint
    finally:
        server.close()
        lint.close()


def judge(server: ServerRunner, lint: InnolintRunner, text: str) -> Judged:
    """`text` (with `{main}` / `{other}` for the two databases) loaded by the server and linted."""
    (loaded,) = server.load([lambda main, other: text.replace("{main}", main).replace("{other}", other)
                             .replace("{MAIN}", main.upper()).replace("{OTHER}", other.upper())])
    linted = lint.lint(text.replace("{main}", "d1").replace("{other}", "d2").replace("{MAIN}", "D1")
                       .replace("{OTHER}", "D2"))
    return Judged(compare(loaded.view, linted.view), {line: code for line, code in loaded.errors},
                  {line: message for line, _, _, message in linted.diagnostics})


def refused_keys(findings: Iterable[Any]) -> list[tuple[int, int, str, str]]:
    """The findings that say the server refuses the statement on this target (refused-ddl's, and
    index-key-length's for a key), as diagnostics at their statement's lines: innolint did say
    there that the server refuses it."""
    return [(f.line, max(f.end_line or 0, f.line), f.rule, f.message) for f in findings
            if f.rule == "refused-ddl" or (f.rule == "index-key-length" and (f.subject or "").startswith("refused:"))]


def model_view(model: Any, main: str, other: str) -> View:
    """innolint's model as a View: its permanent tables, by database (no database named, or the
    first one's name: "main"; the second one's: "other"; any other name as it is)."""
    from linter.schema.innodb_sizes import column_charset
    from linter.schema.target import Target

    target = Target.parse(TARGET)
    view: View = {}
    for table in model.tables():
        if table.temporary:
            continue
        schema = table.schema
        role = "main" if schema is None or schema == main else "other" if schema == other else f"?{schema}"
        key = (role, table.name)
        if key in view:  # two tables where the server can have one: never equal to its view
            key = (role, table.name + " (again)")
        engine = (table.engine or "innodb").lower()
        engine = {"heap": "memory", "xtradb": "innodb"}.get(engine, engine)
        schema_of = model.find_schema(table.schema)
        columns = tuple(_column_facts(c, column_charset(c, table, target, schema_of)) for c in table.columns.values())
        indexes = tuple(IndexFacts(i.name if i.kind != "primary" else "PRIMARY", i.kind,
                                   tuple((p.name.lower(), p.prefix) for p in i.columns)) for i in table.indexes)
        clustered = table.clustered_index
        view[key] = TableFacts(engine, columns, indexes,
                               None if clustered is None else (clustered.kind, tuple(
                                   (p.name.lower(), p.prefix) for p in clustered.columns)),
                               partial=table.origin == "select")
    return view


def _column_facts(column: Any, charset: Any) -> ColumnFacts:
    """`charset`: the ResolvedCharset innolint gives the column (None, or a binary type's: it holds
    bytes, which information_schema shows as no character set)."""
    base = column.type.lower()
    base = _TYPE_SYNONYMS.get(base, base)
    length = None
    if base in _CHAR_TYPES:
        length = int(column.params[0]) if column.params and str(column.params[0]).isdigit() else (
            1 if base == "char" else None)
    shown = charset.charset if charset is not None and charset.source != "binary type" else None
    return ColumnFacts(column.name, base, length, bool(column.unsigned), bool(column.nullable), shown)




# --- the comparison, the divergence, the shrinking --------------------------------------------------


#: what innolint says at a statement it cannot follow (`Trial.lost_track_before`)
_LOST_TRACK = "the schema after"


@dataclass
class Trial:
    """One script run on both sides."""

    script: Script
    spans: list[tuple[int, int]]
    loaded: Loaded
    linted: Linted
    differences: list[Difference]

    def unit_at(self, line: int) -> int | None:
        for n, (first, last) in enumerate(self.spans):
            if first <= line <= last:
                return n
        return None

    def server_errors(self, unit: int) -> tuple[int, ...]:
        """The error codes the server gave the statements starting in this unit, in order."""
        return tuple(code for line, code in self.loaded.errors if self.unit_at(line) == unit)

    def server_error(self, unit: int) -> int | None:
        """The last error code the server gave a statement starting in this unit (None: none)."""
        codes = self.server_errors(unit)
        return codes[-1] if codes else None

    def diagnosed(self, unit: int) -> list[tuple[int, int, str, str]]:
        """innolint's diagnostics on a statement that overlaps this unit."""
        first, last = self.spans[unit]
        return [d for d in self.linted.diagnostics if d[0] and d[0] <= last and d[1] >= first]

    def lost_track_before(self, unit: int) -> bool:
        """Whether innolint said, at a statement before this unit, that the schema after it may
        differ from the server's: a CALL or dynamic SQL it cannot follow, a branch it replays as
        if it ran or does not replay (`IF @flag = 1 THEN DROP TABLE t1; END IF`). A divergence
        after that (the DROP reaching a temporary table on one side) is where it lost track."""
        first = self.spans[unit][0]
        return any(line < first and (_LOST_TRACK in message or message.startswith("not replayed:")
                                     or "from here on" in message)
                   for line, _, _, message in self.linted.diagnostics)

    def status(self, unit: int) -> str:
        """What innolint did at a unit where the views part: "silent" (said nothing), "applied"
        (reported a replay-error, yet changed its model by a statement the server rejected: it
        knew something was wrong and built on it anyway) or "diagnosed" (said it lost track)."""
        diagnostics = self.diagnosed(unit)
        if self.lost_track_before(unit):  # (what it said before explains what differs here: fuzz seed 372)
            return "diagnosed"
        if not diagnostics:
            return "silent"
        if any("cannot follow" in message or "cannot tell" in message for _, _, _, message in diagnostics):
            return "diagnosed"  # (a CALL or EXECUTE the server ran part of; columns of a SELECT innolint cannot read)
        if self.server_error(unit) is not None and all(rule in ("replay-error", "refused-ddl")
                                                       for _, _, rule, _ in diagnostics):
            return "applied"
        return "diagnosed"

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(sorted({d.kind for d in self.differences}))

    @property
    def where(self) -> frozenset[tuple[str, str]]:
        """Which part of which table differs."""
        return frozenset((d.kind, d.table) for d in self.differences)


@dataclass
class Case:
    """A script whose model differs from the server's, and what is known about the difference.

    status (`Trial.status` at the unit where the views part): "silent" and "applied" are
    mismatches; "diagnosed" is innolint saying, where it lost track, that it did; "unlocated"
    until located."""

    trial: Trial
    status: str = "unlocated"
    #: the unit where the views part (the prefix up to it differs, the one before does not)
    unit: int | None = None
    #: the trial of the script up to that unit
    at: Trial | None = None
    #: innolint's diagnostics at that unit
    diagnostics: list[tuple[int, int, str, str]] = field(default_factory=list)
    #: the shrunk script (its divergent unit is `repro_unit`) and its own trial
    repro: Trial | None = None
    repro_unit: int | None = None
    known: str | None = None  # the known class it belongs to, if any

    # -- what a class predicate reads --------------------------------------------------------
    @property
    def mismatch(self) -> bool:
        return self.status in MISMATCH

    @property
    def shown(self) -> Trial:
        """The reproduction: the shrunk script, else the script up to where it parts."""
        return self.repro or self.at or self.trial

    @property
    def shown_unit(self) -> int | None:
        return self.repro_unit if self.repro is not None else self.unit

    @property
    def units(self) -> tuple[Unit, ...]:
        return self.shown.script.units

    @property
    def focus(self) -> Unit | None:
        """The unit where the views part, in the reproduction."""
        unit = self.shown_unit
        return self.units[unit] if unit is not None else None

    @property
    def code(self) -> int | None:
        """The server's error on the focus unit (None: it accepted it)."""
        unit = self.shown_unit
        return self.shown.server_error(unit) if unit is not None else None

    @property
    def codes(self) -> tuple[int, ...]:
        """Every error the server gave a statement of the focus unit."""
        unit = self.shown_unit
        return self.shown.server_errors(unit) if unit is not None else ()

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(self.shown.kinds)

    @property
    def text(self) -> str:
        return self.shown.script.text()

    def before(self) -> tuple[Unit, ...]:
        """The units before the focus."""
        unit = self.shown_unit
        return self.units[:unit] if unit is not None else self.units

    def has(self, *kinds: str) -> bool:
        """Some unit of the reproduction is of one of these kinds (prefix match: "exec-" ...)."""
        return any(u.kind.startswith(kinds) for u in self.units)

    def signature(self) -> str:
        """Names the mismatch by what the reproduction is made of, where the server and innolint
        part, and how their views differ: the grouping of unknown mismatches into classes."""
        trial, unit = self.shown, self.shown_unit
        if unit is None:
            return f"(not located) | {','.join(trial.kinds)}"
        focus = trial.script.units[unit]
        features = sorted({u.kind for u in trial.script.units[:unit]})
        dress = [f"end={focus.end}"] if focus.end not in ("delim", "own") else []
        dress += ["noise"] * bool(focus.noise) + ["lead"] * bool(focus.lead) + ["trail"] * bool(focus.trail)
        code = trial.server_error(unit)
        server = "server ok" if code is None else f"server error {code}"
        return (f"{focus.kind}{'[' + ','.join(dress) + ']' if dress else ''} after [{','.join(features)}] | "
                f"{server} | {','.join(trial.kinds)}")

    def short_signature(self) -> str:
        """The signature without the kinds of the units before: to group cases not shrunk."""
        trial, unit = self.shown, self.shown_unit
        if unit is None:
            return self.signature()
        code = trial.server_error(unit)
        return (f"{trial.script.units[unit].kind} | {'server ok' if code is None else f'server error {code}'} | "
                f"{','.join(trial.kinds)}")

    def report(self) -> str:
        """The reproduction as a user would see it: the script, where it parts, both views."""
        trial, unit = self.shown, self.shown_unit
        lines = [f"seed {self.trial.script.seed}: {self.signature()}"]
        if self.known:
            lines.append(f"known class: {self.known}")
        if unit is not None:
            first, last = trial.spans[unit]
            code = trial.server_error(unit)
            lines.append(f"the views part at line{'s' if last > first else ''} {first}{f'-{last}' if last > first else ''}"
                         f" ({trial.script.units[unit].kind}): the server "
                         + ("accepted it" if code is None else f"rejected it (error {code})")
                         + {"silent": "; innolint said nothing there",
                            "applied": "; innolint reported a replay-error there, yet applied it",
                            "diagnosed": "; innolint reported it there"}[trial.status(unit)])
        lines.append("script (loaded into database d1 by `mariadb --force d1`; d2 exists too):")
        lines.extend("  | " + line for line in self.text.rstrip("\n").split("\n"))
        lines.append("differences (server vs innolint):")
        lines.extend(f"    {d}" for d in trial.differences)
        if trial.loaded.errors:
            lines.append("server errors: " + ", ".join(f"line {line}: {code}" for line, code in trial.loaded.errors))
        lines.append("innolint diagnostics: " + ("; ".join(
            f"line {line}: {rule}: {message[:150]}" for line, _, rule, message in trial.linted.diagnostics) or "none"))
        return "\n".join(lines)


#: the statuses that fail the property: innolint said nothing where it lost track, or it built on
#: a statement the server rejected
MISMATCH = frozenset({"silent", "applied"})


@dataclass(frozen=True)
class KnownClass:
    """A mismatch class known today: a name, what goes wrong, and a predicate on the case (its
    shrunk reproduction). Strike it off when its fix lands: the test then says if it still occurs."""

    name: str
    description: str
    matches: Callable[[Case], bool]


#: the shrinking steps, in order: the divergent unit alone; half of the others dropped (again while
#: that keeps the mismatch); each other unit dropped (then every unit whose dropping kept the
#: mismatch, at once); every unit without its comments, noise and odd end at once; each thing
#: taken from a unit (then all those that kept it, at once)
_PHASES = ("alone", "halves", "drop", "dress", "simplify")


@dataclass
class _Shrinking:
    """One case being shrunk: the trial it started from (the script up to where the views part,
    which stays its last unit) and the units it is down to."""

    case: Case
    reference: Trial
    units: tuple[Unit, ...]
    phase: int = 0
    spent: int = 0
    combo: tuple[Unit, ...] | None = None
    fallback: tuple[Unit, ...] | None = None


class Differ:
    """Runs scripts on both sides, finds where they part and shrinks the silent mismatches.
    `shrink_budget`: at most this many trials spent shrinking one case."""

    def __init__(self, server: ServerRunner, lint: InnolintRunner, known: Sequence[KnownClass] = (),
                 shrink_budget: int = 150) -> None:
        self.server = server
        self.lint = lint
        self.known = list(known)
        self.shrink_budget = shrink_budget
        self._cache: dict[str, tuple[Loaded, Linted]] = {}
        self.trial_count = 0

    def trials(self, scripts: Sequence[Script]) -> list[Trial]:
        """Each script on both sides: the server loads them (several clients at once) while
        innolint lints them here. A text run before is not run again."""
        rendered = [s.render() for s in scripts]
        results = {text: self._cache[text] for text, _ in rendered if text in self._cache}
        todo: dict[str, Script] = {}
        for script, (text, _) in zip(scripts, rendered):
            if text not in results:
                todo.setdefault(text, script)
        if todo:
            with ThreadPoolExecutor(1) as background:
                loading = background.submit(self.server.load, [s.text for s in todo.values()])
                linted = [self.lint.lint(text) for text in todo]
                results.update(zip(todo, zip(loading.result(), linted)))
            if len(self._cache) > 20_000:
                self._cache.clear()
            self._cache.update((text, results[text]) for text in todo)
        self.trial_count += len(scripts)
        found = []
        for script, (text, spans) in zip(scripts, rendered):
            load, lint = results[text]
            found.append(Trial(script, spans, load, lint, compare(load.view, lint.view)))
        return found

    def run(self, scripts: Sequence[Script]) -> tuple[list[Trial], list[Case]]:
        """Every script compared; a Case for each that differs, located, and shrunk when silent."""
        trials = self.trials(scripts)
        cases = [Case(t) for t in trials if t.differences]
        self.locate(cases)
        self.shrink([c for c in cases if c.mismatch])
        for case in cases:
            if case.mismatch:
                case.known = next((k.name for k in self.known if _safe(k.matches, case)), None)
        return trials, cases

    def locate(self, cases: Sequence[Case]) -> None:
        """Each case's divergent unit and its status."""
        for case, (unit, prefix) in zip(cases, self.divergence([c.trial for c in cases])):
            case.unit, case.at = unit, prefix
            case.diagnostics = case.trial.diagnosed(unit)
            case.status = case.trial.status(unit)

    def divergence(self, trials: Sequence[Trial]) -> list[tuple[int, Trial]]:
        """For each differing trial, a unit where the views part: the prefix up to it differs
        and the prefix before it does not (bisection over prefixes, all trials' in one batch per
        step), with the trial of that prefix."""
        low = [0] * len(trials)
        high = [len(t.script.units) - 1 for t in trials]
        at = list(trials)
        while True:
            jobs = [(n, (low[n] + high[n]) // 2) for n in range(len(trials)) if low[n] < high[n]]
            if not jobs:
                return [(high[n], at[n]) for n in range(len(trials))]
            results = self.trials([trials[n].script.with_units(trials[n].script.units[:mid + 1]) for n, mid in jobs])
            for (n, mid), result in zip(jobs, results):
                if result.differences:
                    high[n], at[n] = mid, result
                else:
                    low[n] = mid + 1

    # -- shrinking ------------------------------------------------------------------------------
    def _keeps(self, state: _Shrinking, candidate: Trial) -> bool:
        """The candidate still shows the mismatch: its views differ, only where the reference's
        did; at its last unit the server answers as before and innolint does as before (says
        nothing, or builds on the statement the server rejected)."""
        if not candidate.differences or not candidate.where <= state.reference.where:
            return False
        last, reference_last = len(candidate.script.units) - 1, len(state.reference.script.units) - 1
        codes, reference = set(candidate.server_errors(last)), set(state.reference.server_errors(reference_last))
        return codes <= reference and bool(codes) == bool(reference) and candidate.status(last) == state.case.status

    def _proposals(self, state: _Shrinking) -> list[tuple[Unit, ...]]:
        if state.combo is not None:
            return [state.combo]
        units, phase = state.units, _PHASES[state.phase]
        pinned = tuple(u for u in units[:-1] if u.pinned)
        if phase == "alone":
            return [pinned + units[-1:]] if len(units) > len(pinned) + 1 else []
        if phase == "halves":
            half = (len(units) - 1) // 2
            if half < 2:
                return []
            return [tuple(u for u in units[:half] if u.pinned) + units[half:],
                    units[:half] + tuple(u for u in units[half:-1] if u.pinned) + units[-1:]]
        if phase == "drop":
            return [units[:i] + units[i + 1:] for i in range(len(units) - 1) if not units[i].pinned]
        if phase == "dress":
            dressed = tuple(u.simplify(t for t in u.simplifications() if t[0] != "part") for u in units)
            return [dressed] if dressed != units else []
        return [units[:i] + (unit.simplify([taken]),) + units[i + 1:]
                for i, unit in enumerate(units) for taken in unit.simplifications()]

    def _advance(self, state: _Shrinking, tried: list[tuple[tuple[Unit, ...], Trial]]) -> bool:
        """Take what the trials showed; False when this case is done."""
        state.spent += len(tried)
        kept = [units for units, trial in tried if self._keeps(state, trial)]
        phase = _PHASES[state.phase]
        if state.combo is not None:  # the round that tried every kept change at once
            state.units = kept[0] if kept else state.fallback or state.units
            state.combo = state.fallback = None
        elif phase == "halves" and kept:
            state.units = min(kept, key=_size)
        elif phase in ("alone", "halves", "dress") or not kept:
            if kept:
                state.units = kept[0]
            state.phase += 1
        elif len(kept) > 1:
            state.combo, state.fallback = self._combination(state, kept), min(kept, key=_size)
        else:
            state.units = kept[0]
        return state.phase < len(_PHASES) and state.spent < self.shrink_budget

    def _combination(self, state: _Shrinking, kept: list[tuple[Unit, ...]]) -> tuple[Unit, ...]:
        """Every kept change at once: without all the units whose dropping kept the mismatch, or
        each unit without everything whose taking away kept it."""
        units = state.units
        if _PHASES[state.phase] == "drop":
            dropped = {next(i for i in range(len(units)) if i >= len(c) or c[i] is not units[i]) for c in kept}
            return tuple(u for i, u in enumerate(units) if i not in dropped)
        taken: dict[int, list[tuple[str, int]]] = {}
        for candidate in kept:
            i = next(i for i in range(len(units)) if candidate[i] is not units[i])
            for simplification in units[i].simplifications():
                if units[i].simplify([simplification]) == candidate[i]:
                    taken.setdefault(i, []).append(simplification)
                    break
        return tuple(u.simplify(taken.get(i, ())) for i, u in enumerate(units))

    def shrink(self, cases: Sequence[Case]) -> None:
        """Shrink each silent case to a short script that still shows its mismatch (all cases'
        candidates loaded at once, step by step), then locate it again; a reproduction that is not
        silent where it parts is not kept (the case shows the script up to where it parts)."""
        states = [_Shrinking(c, c.at, c.at.script.units) for c in cases if c.at is not None]
        active = list(states)
        while active:
            jobs = [(state, units) for state in active for units in self._proposals(state)]
            results = self.trials([state.case.trial.script.with_units(units) for state, units in jobs])
            by_state: dict[int, list[tuple[tuple[Unit, ...], Trial]]] = {}
            for (state, units), trial in zip(jobs, results):
                by_state.setdefault(id(state), []).append((units, trial))
            active = [s for s in active if self._advance(s, by_state.get(id(s), []))]
        shrunk = self.trials([s.case.trial.script.with_units(s.units) for s in states])
        for state, (unit, prefix) in zip(states, self.divergence(shrunk)):
            # the reproduction ends where its views part (what follows only confirms it)
            if prefix.differences and prefix.status(unit) == state.case.status:
                state.case.repro, state.case.repro_unit = prefix, unit


def _size(units: tuple[Unit, ...]) -> tuple[int, int]:
    text = "".join(_inline(u) + u.lead + u.trail for u in units)
    return len(units), len(text) + sum(bool(u.noise) for u in units) * 50


def _safe(predicate: Callable[[Case], bool], case: Case) -> bool:
    try:
        return bool(predicate(case))
    except Exception:  # noqa: BLE001 - a predicate that cannot read a case does not match it
        return False


# --- the mismatch classes known today -----------------------------------------------------------
#
# Each class is recognised on the shrunk reproduction (every unit left in it is needed). The list
# is ordered: a case belongs to the first class that matches. The most certain evidence goes first:
# the kind of the unit where the views part (dynamic SQL, a block the server stops), then the
# server's error code on it (a statement it REFUSED that innolint applied), then how the two models
# differ (the model classes), and only then text features of the script (names, namespaces),
# which a shrunk script may keep without needing them. Remove a class when its fix lands (the
# mysql client's and the text's classes went with issue 14's splitter and parser refusals):
# tests/test_differential.py then reports any case it still covered as a new class, or nothing.

#: the target, mariadb-10.11: any 10.11.x runs what is marked 10.11.0 or older, none what is
#: marked 10.12 or newer (in between it depends on the patch level; the generator uses none of it)
_MARIADB_VERSION = 101100


def runs_on_mariadb(marker: str, digits: str) -> bool:
    """Whether MariaDB 10.11 runs an executable comment `/*!digits` or `/*M!digits` (as the server
    does, tests/test_differential.py checks: 5-digit MySQL versions from 50700 on are MySQL's own
    and skipped, other versions run up to the server's own)."""
    version = int(digits)
    if len(digits) == 5 and not marker:
        return version < 50700
    return version <= _MARIADB_VERSION




KNOWN_CLASSES: tuple[KnownClass, ...] = (
)
