"""Character set and collation names as the server normalises them (`utf8` is utf8mb3, a
collation names its character set): the parser writes them so into a table's options and columns;
InnoDB's sizes (`linter.schema.innodb_sizes`) read them."""

from __future__ import annotations


def normalize_charset(name: str) -> str:
    """A character set's canonical name: lower case, `utf8` as the alias of utf8mb3 it is on every
    target (MySQL 8.0 manual 12.9.2 "The utf8mb3 Character Set"; MariaDB 10.6+ with the default
    old_mode=UTF8_IS_UTF8MB3: verified, `CHARSET utf8` shows as utf8mb3)."""
    lowered = name.strip("'\"`").lower()
    return "utf8mb3" if lowered == "utf8" else lowered


def charset_of_collation(collation: str) -> str | None:
    """The character set a collation belongs to: its name up to the first `_` (`binary` is its
    own); None for MariaDB's character-set-independent `uca1400_*` names (10.10+), which apply to
    the character set around them. Verified: true of every collation of the test MariaDB
    (information_schema.COLLATIONS)."""
    lowered = collation.strip("'\"`").lower()
    if lowered == "binary":
        return "binary"
    if lowered.startswith("uca1400_"):
        return None
    return normalize_charset(lowered.split("_", 1)[0])
