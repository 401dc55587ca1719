"""What a large column probably holds, read from its name, its table's name and its neighbours.

Why: a column name alone misleads. `data LONGBLOB` next to `mime_type`, `width` and `height` holds
image bytes (JPEG, PNG: compressed already), not a document; `data BLOB` in a table named
`ciphers` holds ciphertext; `object LONGBLOB` next to `format ENUM('xml','json')` holds documents
whatever it is called. A DBA reads the whole table before guessing, so this module does too.

The evidence, by strength (`content_of` applies it in this order):

1. the column's own name or COMMENT: image/photo/avatar/zip/encrypted/hash/token/password ...
   (already compressed, random or a secret: never worth compressing);
2. the application compresses the values itself: a neighbouring flag or format column named
   compressed/gzip/compression, or a format/encoding column whose values (ENUM, DEFAULT, COMMENT)
   say gzip/zlib/lz4/zstd ...;
3. a format/encoding/serializer neighbour whose values say json/xml/yaml/serialized (documents) or
   protobuf/msgpack/avro (serialised objects);
4. stored media: width and height columns, a table named images/photos/thumbnails/media ..., or a
   content-type column whose ENUM or DEFAULT lists only image/audio/video types;
5. stored files: a content-type (mime_type, content_type, mimetype, media_type), file-name or
   extension column, or a table named files/attachments/uploads: the bytes are whatever files
   users upload (PDF, Office and archives are compressed already), so the payoff is uncertain,
   unless the content types listed are all text (text/*, JSON, XML);
6. a table whose name says it holds secrets (credentials, ciphers, keys, tokens): ciphertext;
7. a neighbouring `serialized` flag or an encoding column without readable values: serialised
   documents.

Only the binary columns (BLOB family) take table-level media and file evidence in full; a text
column in such a table is demoted only when its name is generic (data, content, body, blob ...),
since it may hold the files base64-encoded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from linter.parse.elements import Column
from linter.schema.model import Table
from linter.record import FrozenRecord
from linter.parse.elements import TableOptions

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)

_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_VALUE_WORD = re.compile(r"[a-z0-9]+")

BINARY_TYPES = frozenset({"BLOB", "MEDIUMBLOB", "LONGBLOB", "TINYBLOB"})

#: name words of columns whose content is already compressed or random: compression cannot win
SKIP_WORDS = frozenset(
    """image images img photo photos picture pic pics thumbnail thumb avatar icon logo file files attachment
    zip gz gzip zlib bz2 lz4 zstd compressed encrypted encryption cipher ciphertext crypt hash hashed digest
    checksum token tokens signature salt secret secrets password passwords passwd pwd passphrase credential
    credentials nonce otp totp hmac jpeg jpg png gif webp pdf mp3 mp4 video audio certificate cert pem der""".split()
)
SKIP_SUFFIXES = ("hash", "token", "image", "photo", "avatar", "password", "passwd", "secret")
#: `private_key`, `apiKey`, `signing_key`: key material (random or base64 of random)
_KEY_QUALIFIERS = frozenset({"private", "public", "secret", "api", "signing", "encryption", "access", "priv", "pub"})

#: name words of columns holding documents: text that repeats keys and words, so compresses well
DOCUMENT_WORDS = frozenset(
    """json payload body data content contents meta metadata config configuration configs message messages
    document documents doc html xml yaml settings options attributes properties props params parameters
    context request response serialized extra""".split()
)
DOCUMENT_SUFFIXES = ("json", "data", "payload", "content", "config", "xml", "html")
#: names that say only "the bytes": in a table of stored files they are the file
_GENERIC_WORDS = frozenset("data content contents body blob bytes raw file value payload binary bin".split())

_CONTENT_WORDS = frozenset("document doc object serialized xml json yaml html text large".split())

#: table-name words of tables that store media, files, secrets
_MEDIA_TABLE_WORDS = frozenset(
    "image images img imgs photo photos picture pictures pic pics thumbnail thumbnails thumb thumbs avatar "
    "avatars icon icons logo logos media video videos audio sound sounds".split()
)
_FILE_TABLE_WORDS = frozenset("file files attachment attachments upload uploads asset assets".split())
_SECRET_TABLE_WORDS = frozenset(
    "secret secrets credential credentials password passwords cipher ciphers keystore keychain vault "
    "certificate certificates cert certs".split()
)

#: words in a format/encoding neighbour's values (ENUM, DEFAULT, COMMENT) and what they mean
_TEXT_FORMATS = frozenset("json xml yaml yml text txt csv html serialized serialize php ini toml plain".split())
_OBJECT_FORMATS = frozenset("proto protobuf proto3 msgpack messagepack avro thrift bson pickle java kryo cbor".split())
_COMPRESSED_FORMATS = frozenset(
    "gzip gz gzipped zlib deflate lz4 zstd snappy brotli br compressed bz2 xz lzma zip".split()
)
#: last name words of a column that says how another is written
_FORMAT_WORDS = frozenset("format encoding serializer serialization serialisation codec encoder marshaller".split())
_MEDIA_MIME = ("image/", "video/", "audio/")
_TEXT_MIME = ("text/", "application/json", "application/xml", "application/javascript", "application/x-yaml")


class Content(FrozenRecord):
    """What a column probably holds: `rank` as compression-candidate ranks (0 high, 1 medium,
    2 low, 3 uncertain) or None when it is not worth compressing; `reason` names the evidence."""

    __slots__ = __match_args__ = ("rank", "reason")
    rank: int | None
    reason: str

    def __init__(self, rank: int | None, reason: str) -> None:
        _set(self, "rank", rank)
        _set(self, "reason", reason)


def words(name: str) -> list[str]:
    """`profilePhoto_url` -> [profile, photo, url]."""
    return [w.lower() for w in _WORD.findall(name)]


def _flat(name: str) -> str:
    """`Content-Type`, `content_type`, `ContentType` -> contenttype."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _listed(column: Column) -> list[str]:
    """The values a column says it holds: ENUM/SET members, its DEFAULT, its COMMENT."""
    values = [p.strip("'\"").lower() for p in column.params] if column.type in ("ENUM", "SET") else []
    if column.default:
        values.append(column.default.strip("()").strip("'\"").lower())
    if column.comment:
        values.append(column.comment.lower())
    return [v for v in values if v and v != "null"]


def _value_words(values: Iterable[str]) -> set[str]:
    return {w for v in values for w in _VALUE_WORD.findall(v)}


class TableContent:
    """The table-level evidence, read once per table: which neighbours describe stored files,
    media, formats and compression."""

    def __init__(self, table: Table) -> None:
        self.table = table
        table_words = set(words(table.name))
        self.media: list[str] = []
        self.files: list[str] = []
        self.secret: str | None = None
        media_word = sorted(table_words & _MEDIA_TABLE_WORDS)
        if media_word:
            self.media.append(f"the table name {table.name} ({media_word[0]})")
        file_word = sorted(table_words & _FILE_TABLE_WORDS)
        if file_word:
            self.files.append(f"the table name {table.name} ({file_word[0]})")
        secret_word = sorted(table_words & _SECRET_TABLE_WORDS)
        if secret_word:
            self.secret = (f"the table name {table.name} ({secret_word[0]}) says it holds keys, certificates or "
                           "ciphertext")
        self.text_mime: list[str] = []
        #: (neighbour column, what its values say) of format/encoding/serializer columns
        self.formats: list[tuple[Column, str]] = []
        #: neighbours saying the application compresses values: (column, why)
        self.compressed: list[tuple[Column, str]] = []
        #: neighbours saying values are serialised without saying how
        self.serialized: list[tuple[Column, str]] = []
        #: the words of each large column's name: what a neighbour's name may start with
        self._large_words = {tuple(words(c.name)): c.name.lower() for c in table.columns.values() if _large(c)}
        widths, heights = [], []
        for column in table.columns.values():
            flat = _flat(column.name)
            tokens = words(column.name)
            last = tokens[-1] if tokens else ""
            if flat in ("mime", "mimetype") or flat.endswith(("mimetype", "contenttype", "mediatype")):
                self._mime(column)
            elif flat.endswith("filename") or flat in ("originalname", "origname", "basename"):
                self.files.append(f"a file name in {column.name}")
            elif flat in ("ext", "fileext") or flat.endswith("extension"):
                self.files.append(f"a file extension in {column.name}")
            if last in ("width", "w") and flat != "w":
                widths.append(column.name)
            if last in ("height", "h") and flat != "h":
                heights.append(column.name)
            self._format(column, flat, tokens)
        if widths and heights:
            self.media.append(f"dimensions in {widths[0]} and {heights[0]}")
        self._by_column = {kind: self._index(found) for kind, found in (
            ("formats", self.formats), ("compressed", self.compressed), ("serialized", self.serialized))}

    def _index(self, found: list[tuple[Column, str]]) -> tuple[dict[str, list[tuple[Column, str]]], list[tuple[Column, str]]]:
        """(neighbours by the large column they are named after, neighbours named after none):
        read once, so each column's lookup is constant time (a table may have 1,000 columns)."""
        named: dict[str, list[tuple[Column, str]]] = {}
        general = []
        for item in found:
            tokens = words(item[0].name)
            about = [self._large_words[tuple(tokens[:n])] for n in range(1, len(tokens))
                     if tuple(tokens[:n]) in self._large_words]
            for name in about:
                named.setdefault(name, []).append(item)
            if not about:
                general.append(item)
        return named, general

    def _mime(self, column: Column) -> None:
        values = [v for v in _listed(column) if "/" in v]
        if values and all(v.startswith(_MEDIA_MIME) for v in values):
            self.media.append(f"{column.name} lists only media types ({', '.join(sorted(values)[:3])})")
        elif values and all(v.startswith(_TEXT_MIME) or v.endswith(("+xml", "+json")) for v in values):
            self.text_mime.append(f"{column.name} lists only text types ({', '.join(sorted(values)[:3])})")
        else:
            self.files.append(f"a content type in {column.name}")

    def _format(self, column: Column, flat: str, tokens: list[str]) -> None:
        if _large(column):
            return  # a large column is content, not a description of it
        if any(t in ("compressed", "gzipped", "gzip", "zipped", "compression") for t in tokens):
            self.compressed.append((column, f"{column.name} says the application compresses them"))
            return
        if self._describes_content(tokens):
            said = _value_words(_listed(column))
            if said & _COMPRESSED_FORMATS:
                hit = sorted(said & _COMPRESSED_FORMATS)[0]
                self.compressed.append((column, f"{column.name} names {hit!r}: the application compresses them"))
            elif said & _TEXT_FORMATS:
                self.formats.append((column, f"{column.name} says {sorted(said & _TEXT_FORMATS)[0]!r}"))
            elif said & _OBJECT_FORMATS:
                self.formats.append((column, f"{column.name} says {sorted(said & _OBJECT_FORMATS)[0]!r}"))
            elif flat.endswith(("serializer", "serialization")) or "content" not in flat:
                # a transfer encoding (`content_encoding`: base64, quoted-printable) says nothing of the content
                self.serialized.append((column, ""))
        elif flat in ("serialized", "isserialized", "serialised", "isserialised"):
            self.serialized.append((column, ""))

    def _describes_content(self, tokens: list[str]) -> bool:
        """`format`, `data_format`, `payload_encoding`, `serializer`: a neighbour that says how a
        large column is written; not `date_format` or `number_format` (how a value is shown)."""
        if not tokens or tokens[-1] not in _FORMAT_WORDS:
            return False
        head = tokens[:-1]
        if all(t in _GENERIC_WORDS or t in _FORMAT_WORDS for t in head):
            return True
        return tuple(head) in self._large_words

    def mine(self, kind: str, column: Column) -> list[tuple[Column, str]]:
        """Of the neighbours of `kind` (formats, compressed, serialized), those that describe
        `column`: the ones named after it (`payload_format` for `payload`), else those named
        after no large column."""
        named, general = self._by_column[kind]
        return named.get(column.name.lower()) or general

    def named(self, kind: str, column: Column) -> list[tuple[Column, str]]:
        """Only the neighbours of `kind` named after `column`."""
        return self._by_column[kind][0].get(column.name.lower(), [])


def _large(column: Column) -> bool:
    return column.type in BINARY_TYPES or column.type in ("TEXT", "MEDIUMTEXT", "LONGTEXT", "JSON")


def _skip_word(tokens: list[str]) -> str | None:
    for token in tokens:
        if token in SKIP_WORDS or token.endswith(SKIP_SUFFIXES):
            return token
    if "key" in tokens and set(tokens) & _KEY_QUALIFIERS:
        return "_".join(tokens)
    joined = "".join(tokens)
    if joined.endswith(("apikey", "privkey", "privatekey", "publickey", "secretkey")):
        return joined
    return None


def _content_named(tokens: list[str]) -> bool:
    """A name that says only "the content" (data, body, payload, document ...), so a bare `format`
    or `serialized` neighbour is about this column (not about `extra` or `notes` beside it)."""
    return bool(tokens) and all(t in _GENERIC_WORDS or t in _CONTENT_WORDS for t in tokens)


def content_of(column: Column, table: TableContent) -> Content:
    """Rank `column` (a large column) by what it probably holds, with the evidence."""
    tokens = words(column.name)
    binary = column.type in BINARY_TYPES
    json = column.type == "JSON"
    skip = _skip_word(tokens)
    if skip is not None:
        return Content(None, f"the name {column.name} ({skip}): compressed, random or a secret already")
    said = _value_words([column.comment.lower()]) if column.comment else set()
    if said & _COMPRESSED_FORMATS and not json:
        return Content(None, f"its COMMENT says {sorted(said & _COMPRESSED_FORMATS)[0]!r}: compressed already")
    compressed = table.mine("compressed", column)
    if compressed and not json:
        return Content(None, compressed[0][1])
    if json:
        return Content(0, "JSON documents")
    if said & _TEXT_FORMATS:
        return Content(0, f"its COMMENT says {sorted(said & _TEXT_FORMATS)[0]!r}")
    broad = binary or _content_named(tokens)  # a bare `format` beside it is about it
    formats = table.mine("formats", column) if broad else table.named("formats", column)
    text_format = [why for neighbour, why in formats if _value_words(_listed(neighbour)) & _TEXT_FORMATS]
    if text_format:
        return Content(0, f"serialised documents: {text_format[0]}")
    document = next((w for w in tokens if w in DOCUMENT_WORDS or w.endswith(DOCUMENT_SUFFIXES)), None)
    generic = all(w in _GENERIC_WORDS for w in tokens) or not tokens
    if table.text_mime and (binary or generic):
        return Content(0, f"stored text files: {table.text_mime[0]}")
    if table.media and (binary or generic):
        return Content(None, f"stored images or media ({', '.join(table.media)}): compressed already")
    if table.files and (binary or generic):
        how = "bytes" if binary else "text (perhaps base64)"
        return Content(3, f"stored files as {how} ({', '.join(table.files)}): PDF, Office, archives and images "
                          "are compressed already, so the payoff depends on the file types")
    if table.secret and not json:
        return Content(None, f"{table.secret}: random bytes and their base64 do not compress")
    if formats:
        return Content(1, f"serialised objects: {formats[0][1]}")
    serialized = table.mine("serialized", column) if broad else table.named("serialized", column)
    if document is not None:
        if serialized and binary:
            return Content(0, f"named like documents ({document}), serialised ({serialized[0][0].name} beside it)")
        return Content(0, f"named like documents ({document})")
    if serialized:
        return Content(0, f"serialised values ({serialized[0][0].name} beside it)")
    if column.type in ("MEDIUMTEXT", "LONGTEXT"):
        return Content(1, "declared for long text")
    if column.type in ("MEDIUMBLOB", "LONGBLOB"):
        return Content(2, "binary of unknown content")
    if column.type == "BLOB":
        return Content(3, "binary of unknown content")
    return Content(2, "text of unknown length" if column.type == "TEXT" else f"VARCHAR({column.length})")


_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)


DEFAULT_MIN_VARCHAR_LENGTH = 4096


_CANDIDATE_TYPES = frozenset({"TEXT", "MEDIUMTEXT", "LONGTEXT", "BLOB", "MEDIUMBLOB", "LONGBLOB", "JSON"})


class Candidate(FrozenRecord):
    """A column worth compressing, and why: rank 0 (documents) to 3 (binary of unknown content)."""

    __slots__ = __match_args__ = ("column", "rank", "reason")
    column: Column
    rank: int
    reason: str

    def __init__(self, column: Column, rank: int, reason: str) -> None:
        _set(self, "column", column)
        _set(self, "rank", rank)
        _set(self, "reason", reason)


# --- which tables and columns ------------------------------------------------------------------------
def table_compression(options: TableOptions) -> str | None:
    """How the table is compressed already, as written; None when it is not."""
    if (options.row_format or "").strip("'\"").upper() == "COMPRESSED":
        return "ROW_FORMAT=COMPRESSED"
    if options.key_block_size:  # KEY_BLOCK_SIZE alone implies ROW_FORMAT=COMPRESSED
        return f"KEY_BLOCK_SIZE={options.key_block_size}"
    compression = (options.compression or "").strip("'\"").lower()
    if compression and compression != "none":
        return f"COMPRESSION='{compression}'"
    if options.page_compressed:
        return "PAGE_COMPRESSED=1"
    return None


def candidates(table: Table, min_varchar_length: int = DEFAULT_MIN_VARCHAR_LENGTH) -> list[Candidate] | None:
    """The table's columns worth compressing, best payoff first; None when the table is already
    compressed (at table, page or column level) or has none."""
    found, _ = classified(table, min_varchar_length)
    return found or None


def classified(
    table: Table, min_varchar_length: int = DEFAULT_MIN_VARCHAR_LENGTH
) -> tuple[list[Candidate], list[tuple[Column, str]]]:
    """(candidates best payoff first, large columns left out with the reason): the ranking reads
    each column with its table's name and neighbours (linter.schema.content). Nothing when
    the table is compressed already at table, page or column level."""
    if table_compression(table.options) is not None:
        return [], []
    columns = table.columns.values()
    if any(c.compressed for c in columns):
        return [], []  # compression chosen column by column already: the rest was left on purpose
    context: TableContent | None = None  # read at the first large column: most tables have none
    found: list[Candidate] = []
    left: list[tuple[Column, str]] = []
    for column in columns:
        kind = column.type
        long_varchar = kind == "VARCHAR" and (column.length or 0) >= min_varchar_length
        if kind not in _CANDIDATE_TYPES and not long_varchar:
            continue
        if column.generated == "virtual":
            continue
        if context is None:
            context = TableContent(table)
        content = content_of(column, context)
        if content.rank is None:
            left.append((column, content.reason))
        else:
            found.append(Candidate(column, content.rank, content.reason))
    found.sort(key=lambda c: c.rank)
    return found, left
