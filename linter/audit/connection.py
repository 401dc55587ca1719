"""The one code path through which the audit talks to a server, and it only reads.

An audit runs against production servers, often with more privileges than it needs, so "read
only" is enforced in three independent layers:

1. ``check_read_only`` refuses, before a byte is sent, any statement that is not a SELECT, a
   SHOW or the exact ``SET SESSION TRANSACTION READ ONLY``, and SELECTs that write
   (``INTO OUTFILE/DUMPFILE/@var``) or lock (``FOR UPDATE``, ``FOR SHARE``,
   ``LOCK IN SHARE MODE``). It reads a statement as the server does (``--`` then a space or a
   control character is a comment; tests/test_connection.py checks every such character against
   MariaDB) and under every sql_mode reading it cannot rule out (backslash escapes on or off,
   ``"`` a string or an identifier): a clause hidden from one reading is seen by another.
   Executable comments (``/*! ... */``, ``/*M! ... */``) are refused because the server runs
   their content; NUL bytes and ``--`` before a character that is not ASCII, because readings
   could differ. Multi-statements are refused here and, independently, by the protocol: the
   client never asks for ``CLIENT_MULTI_STATEMENTS``; ``LOAD DATA LOCAL`` is off (PyMySQL's
   default).
2. The session is made ``READ ONLY`` at connect (PyMySQL's ``init_command``, so even a
   reconnect would get it) and that is verified, so a write that slipped through (a stored
   function called from a SELECT) fails on the server.
3. The grants: the documentation tells to audit as a user with only SELECT and PROCESS.

What this does not stop: SELECTs that are merely expensive or wait (``SLEEP()``, ``GET_LOCK()``),
so the audit's own queries must stay cheap.

What the driver sends besides the guarded statements (the server's general log, checked in the
tests): ``SET NAMES utf8mb4`` and the init command at connect, ``SET AUTOCOMMIT = 1`` when the
server's default is autocommit off, and COM_QUIT at close.

The password is taken from the caller, the ``--defaults-file`` or ``MYSQL_PWD``, never from the
DSN (a DSN ends up in shell history, process lists and CI logs), and it appears in no repr, log or
exception message.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from pydantic import BaseModel, ConfigDict

__all__ = [
    "AuditConnectionError",
    "AuditQueryError",
    "Dsn",
    "DsnError",
    "ReadOnlyConnection",
    "WriteRefused",
    "check_read_only",
    "connect",
    "read_defaults_file_password",
    "resolve_password",
]

#: Run at connect and the only SET allowed through ``query``.
READ_ONLY_STATEMENT = "SET SESSION TRANSACTION READ ONLY"
DEFAULT_PORT = 3306
_ALLOWED_FIRST = ("SELECT", "SHOW")
_PASSWORD_HELP = ("pass it with --password-env NAME, the MYSQL_PWD environment variable or a "
                  "--defaults-file with [client] password=...")


class DsnError(ValueError):
    """The DSN cannot be understood; the message never repeats the DSN's text."""


class AuditConnectionError(Exception):
    """Connecting to (or staying connected with) the server failed; names host:port, never the
    password."""


class AuditQueryError(Exception):
    """The server rejected a read (missing grant, unknown table); ``code`` is the server's."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"({code}) {message}")
        self.code = code


class WriteRefused(Exception):
    """The statement could change something (or hide what it does), so it was never sent."""


# --- the DSN ---------------------------------------------------------------------------------


class Dsn(BaseModel):
    """Where to connect and what to audit: ``mysql://user@host:port/?schemas=a,b`` or
    ``mysql://user@/?socket=/path/mysqld.sock&schemas=a``. Holds no password by design."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    user: str
    host: str | None = None
    port: int = DEFAULT_PORT
    socket: str | None = None
    schemas: list[str] = []

    @classmethod
    def parse(cls, text: str) -> Dsn:
        """Parse a DSN; a password in it is refused rather than silently used."""
        try:
            parts = urlsplit(text.strip())
        except ValueError:
            raise DsnError("cannot read the DSN (unbalanced [ ] around an IPv6 host?)") from None
        if parts.scheme not in ("mysql", "mariadb"):
            raise DsnError("a DSN starts with mysql:// (e.g. mysql://user@host:3306/?schemas=app)")
        if parts.password is not None:
            raise DsnError(f"the DSN must not contain a password: {_PASSWORD_HELP}")
        try:
            port = parts.port
        except ValueError:  # urllib's message quotes the text, which might be a misplaced secret
            raise DsnError("the DSN's port must be a number from 1 to 65535") from None
        if not parts.username:
            raise DsnError("the DSN needs a user: mysql://user@host:port/")
        if parts.fragment:
            raise DsnError("the DSN must not have a #fragment")
        query = parse_qs(parts.query, keep_blank_values=True, strict_parsing=False)
        unknown = sorted(set(query) - {"schemas", "socket"})
        if unknown:
            raise DsnError(f"unknown DSN parameter(s): {', '.join(unknown)} "
                           "(known: schemas, socket)")
        schemas = [name.strip() for value in query.get("schemas", []) for name in value.split(",")]
        path = unquote(parts.path.strip("/"))
        if path:  # mysql://user@host/app: the usual way to name one database
            if schemas:
                raise DsnError("name the schemas either in the path or in ?schemas=, not both")
            schemas = [path]
        if any(not name for name in schemas):
            raise DsnError("empty schema name in the DSN's schemas list")
        socket = unquote(query["socket"][-1]) if "socket" in query else None
        host = parts.hostname
        if socket is not None and host not in (None, "localhost"):
            raise DsnError("give either a host or a socket, not both")
        if socket is None and host is None:
            raise DsnError("the DSN needs a host (mysql://user@host:3306/) "
                           "or a socket (mysql://user@/?socket=/path/mysqld.sock)")
        return cls(user=unquote(parts.username), host=None if socket else host,
                   port=port or DEFAULT_PORT, socket=socket, schemas=list(dict.fromkeys(schemas)))

    @property
    def address(self) -> str:
        """``host:port`` or ``socket /path``: what error messages name."""
        if self.socket is not None:
            return f"socket {self.socket}"
        host = f"[{self.host}]" if self.host and ":" in self.host else self.host
        return f"{host}:{self.port}"


# --- the password ----------------------------------------------------------------------------


def read_defaults_file_password(path: str) -> str | None:
    """The ``password`` of the ``[client]`` group of a MySQL option file, as the mysql client
    reads it (last one wins; quotes stripped), or None. Parsed by hand because configparser
    rejects ``!include`` lines and valueless options that real option files have."""
    try:
        with open(path, encoding="utf-8") as option_file:
            lines = option_file.read().splitlines()
    except OSError as error:
        raise AuditConnectionError(f"cannot read the defaults file {path}: {error.strerror}") from None
    group, password = "", None
    for raw in lines:
        line = raw.strip()
        if not line or line[0] in "#;!":
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line[1:-1].strip().lower()
            continue
        key, sep, value = line.partition("=")
        if group == "client" and sep and key.strip().lower().replace("_", "-") == "password":
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]
            password = value
    return password


def resolve_password(password: str | None, defaults_file: str | None = None,
                     environ: Mapping[str, str] | None = None) -> str | None:
    """The password to use: the one given (from --password-env), else the ``--defaults-file``'s,
    else ``MYSQL_PWD``, else none. An explicit defaults file outranks the ambient environment
    variable, as in the mysql client (option files over MYSQL_PWD)."""
    if password is not None:
        return password
    if defaults_file is not None:
        from_file = read_defaults_file_password(defaults_file)
        if from_file is not None:
            return from_file
    return (os.environ if environ is None else environ).get("MYSQL_PWD")


# --- the read-only guard ---------------------------------------------------------------------

#: what ends a `--` comment's dash pair, as MariaDB and MySQL read it: `--` starts a comment
#: when the next character is a space or a control character (sql_lex.cc: my_isspace ||
#: my_iscntrl), so `--\x01` is a comment and `a--1` is arithmetic
_COMMENT_AFTER_DASHES = frozenset(chr(c) for c in (*range(0x00, 0x21), 0x7F))
_SPACE = " \t\r\n\f\v"


def _tokens(sql: str, backslash_escapes: bool, ansi_quotes: bool) -> list[str]:
    """Upper-cased words, quoted spans (as ``'``, ``"`` or `````) and single symbols of ``sql``,
    comments dropped, read as the server reads them under the given sql_mode flags
    (NO_BACKSLASH_ESCAPES off: ``backslash_escapes``; ANSI_QUOTES: ``"`` quotes an identifier,
    in which a backslash is no escape). Refuses what it cannot read for sure: unterminated
    quotes or comments, executable comments, NUL bytes (the server ends a comment at one), and
    `--` followed by a character that is not ASCII (the servers' control-character test then
    depends on the character set)."""
    if "\0" in sql:
        raise WriteRefused("NUL bytes are refused (the server ends a comment at one)")
    tokens: list[str] = []
    i, n = 0, len(sql)
    while i < n:
        char = sql[i]
        if char in _SPACE:
            i += 1
        elif sql.startswith("--", i) and (i + 2 == n or sql[i + 2] in _COMMENT_AFTER_DASHES or ord(sql[i + 2]) > 0x7F):
            if i + 2 < n and ord(sql[i + 2]) > 0x7F:
                raise WriteRefused("`--` followed by a character that is not ASCII is refused (is it a comment?)")
            end = sql.find("\n", i)
            i = n if end < 0 else end + 1
        elif char == "#":
            end = sql.find("\n", i)
            i = n if end < 0 else end + 1
        elif sql.startswith("/*", i):
            if sql.startswith(("/*!", "/*M!", "/*m!"), i):
                raise WriteRefused("executable comments (/*! ... */) are refused: the server "
                                   "runs their content")
            end = sql.find("*/", i + 2)
            if end < 0:
                raise WriteRefused("unterminated comment")
            i = end + 2
        elif char in "'\"`":
            escapes = backslash_escapes and char != "`" and not (char == '"' and ansi_quotes)
            i += 1
            while True:
                if i >= n:
                    raise WriteRefused("unterminated quoted string or identifier")
                if sql[i] == "\\" and escapes:
                    i += 2
                elif sql[i] == char:
                    if i + 1 < n and sql[i + 1] == char:  # doubled quote
                        i += 2
                    else:
                        i += 1
                        break
                else:
                    i += 1
            tokens.append(char)
        elif char.isalnum() or char in "_$" or ord(char) > 127:
            start = i
            while i < n and (sql[i].isalnum() or sql[i] in "_$" or ord(sql[i]) > 127):
                i += 1
            tokens.append(sql[start:i].upper())
        else:
            tokens.append(char)
            i += 1
    return tokens


def _contains(tokens: Sequence[str], phrase: Sequence[str]) -> bool:
    width = len(phrase)
    return any(list(tokens[i:i + width]) == list(phrase) for i in range(len(tokens) - width + 1))


def _check_tokens(tokens: list[str]) -> None:
    if tokens and tokens[-1] == ";":
        tokens = tokens[:-1]
    if ";" in tokens:
        raise WriteRefused("multiple statements are refused")
    if not tokens:
        raise WriteRefused("empty statement")
    if tokens[0] == "SET":
        if tokens != READ_ONLY_STATEMENT.split():
            raise WriteRefused(f"the only SET allowed is {READ_ONLY_STATEMENT}")
        return
    if tokens[0] not in _ALLOWED_FIRST:
        raise WriteRefused(f"only SELECT and SHOW are allowed, not {tokens[0]}")
    if "INTO" in tokens:
        raise WriteRefused("SELECT ... INTO (OUTFILE, DUMPFILE, variables) is refused")
    for lock in (("FOR", "UPDATE"), ("FOR", "SHARE"), ("LOCK", "IN", "SHARE", "MODE")):
        if _contains(tokens, lock):
            raise WriteRefused(f"locking reads ({' '.join(lock)}) are refused")


def check_read_only(sql: str, backslash_escapes: bool | None = None, ansi_quotes: bool | None = None) -> None:
    """Raise ``WriteRefused`` unless ``sql`` is one statement that only reads.

    The statement is read as the server reads it, and must pass every reading the server might
    make: ``backslash_escapes`` says how the server reads ``\\'`` in strings (False under
    sql_mode NO_BACKSLASH_ESCAPES), ``ansi_quotes`` whether ``"`` quotes identifiers (sql_mode
    ANSI_QUOTES); each None (unknown) means both. So a string or identifier that ends
    differently under two modes cannot hide a second clause."""
    backslash_modes = (True, False) if backslash_escapes is None else (backslash_escapes,)
    quote_modes = (False, True) if ansi_quotes is None else (ansi_quotes,)
    for backslashes in backslash_modes:
        for ansi in quote_modes:
            try:
                _check_tokens(_tokens(sql, backslashes, ansi))
            except WriteRefused as refused:
                excerpt = " ".join(sql.split())
                excerpt = excerpt if len(excerpt) <= 80 else excerpt[:77] + "..."
                raise WriteRefused(f"{refused} (statement not sent: {excerpt})") from None


# --- the connection --------------------------------------------------------------------------


def _scrub(text: str, secret: str | None) -> str:
    """``text`` with any occurrence of the password masked (belt and braces: the drivers'
    messages are not known to quote it, but they are not ours)."""
    return text.replace(secret, "***") if secret else text


def _is_client_error(error: Exception) -> bool:
    """True for errors of the link (2000-2999 are client-side codes: lost connection, gone away)
    rather than of the statement."""
    import pymysql

    if isinstance(error, pymysql.err.InterfaceError):
        return True
    code = error.args[0] if error.args and isinstance(error.args[0], int) else 0
    return 2000 <= code < 3000


class ReadOnlyConnection:
    """A PyMySQL connection that only lets reads through; build it with ``connect``."""

    def __init__(self, raw: Any, dsn: Dsn) -> None:
        self._raw = raw
        self._dsn = dsn

    @property
    def dsn(self) -> Dsn:
        return self._dsn

    def __repr__(self) -> str:
        return f"ReadOnlyConnection({self._dsn.user}@{self._dsn.address})"

    def __enter__(self) -> ReadOnlyConnection:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        if self._raw.open:
            self._raw.close()

    def _backslash_escapes(self) -> bool | None:
        """How the server reads backslashes now, from its last status flags; None before the
        connection has talked to a server."""
        from pymysql.constants import SERVER_STATUS

        status = getattr(self._raw, "server_status", None)
        if status is None:
            return None
        return not status & SERVER_STATUS.SERVER_STATUS_NO_BACKSLASH_ESCAPES

    def _execute(self, sql: str, args: Sequence[Any] | Mapping[str, Any] | None,
                 cursor_class: Any) -> list[Any]:
        import pymysql

        if args is not None:  # check what will be sent, arguments included
            sql = self._raw.cursor().mogrify(sql, args)
        check_read_only(sql, self._backslash_escapes())
        try:
            with self._raw.cursor(cursor_class) as cursor:
                cursor.execute(sql)
                return list(cursor.fetchall())
        except pymysql.err.MySQLError as error:
            if _is_client_error(error):
                raise AuditConnectionError(
                    f"lost the connection to {self._dsn.address}: {error}") from None
            code = error.args[0] if error.args and isinstance(error.args[0], int) else 0
            message = str(error.args[1]) if len(error.args) > 1 else str(error)
            raise AuditQueryError(code, message) from None

    def query(self, sql: str, args: Sequence[Any] | Mapping[str, Any] | None = None
              ) -> list[tuple[Any, ...]]:
        """Rows of one read-only statement; ``args`` are PyMySQL ``%s`` parameters (so a literal
        ``%`` in ``sql`` is written ``%%`` when args are given)."""
        import pymysql

        return self._execute(sql, args, pymysql.cursors.Cursor)

    def query_dicts(self, sql: str, args: Sequence[Any] | Mapping[str, Any] | None = None
                    ) -> list[dict[str, Any]]:
        """Like ``query``, each row a dict by column name."""
        import pymysql

        return self._execute(sql, args, pymysql.cursors.DictCursor)

    def session_read_only(self) -> bool:
        """Whether the server says this session's transactions are read-only.
        ``transaction_read_only`` is MySQL >= 5.7.20 and MariaDB >= 11.1; ``tx_read_only`` the
        older name (the only one in MariaDB 10.x, gone in MySQL 8)."""
        try:
            rows = self.query("SELECT @@session.transaction_read_only")
        except AuditQueryError as error:
            if error.code != 1193:  # ER_UNKNOWN_SYSTEM_VARIABLE
                raise
            rows = self.query("SELECT @@session.tx_read_only")
        return bool(int(rows[0][0]))

    def server_version(self) -> str:
        return str(self.query("SELECT VERSION()")[0][0])


def connect(dsn: str | Dsn, password: str | None = None, defaults_file: str | None = None,
            *, connect_timeout: float = 10.0) -> ReadOnlyConnection:
    """Connect for an audit: parse the DSN, find the password (see ``resolve_password``), make
    the session read-only and check that it is."""
    import pymysql

    parsed = dsn if isinstance(dsn, Dsn) else Dsn.parse(dsn)
    secret = resolve_password(password, defaults_file)
    try:
        raw = pymysql.connect(
            host=parsed.host or "localhost", port=parsed.port, unix_socket=parsed.socket,
            user=parsed.user, password=(secret or "").encode("utf-8"),
            client_flag=0,  # PyMySQL adds its CAPABILITIES, which lack MULTI_STATEMENTS
            init_command=READ_ONLY_STATEMENT, autocommit=True, charset="utf8mb4",
            connect_timeout=connect_timeout, local_infile=False,
            program_name="innolint-audit")
    except pymysql.err.MySQLError as error:
        reason = _scrub(str(error.args[1]) if len(error.args) > 1 else str(error), secret)
        raise AuditConnectionError(
            f"cannot connect to {parsed.address} as {parsed.user}: {reason}") from None
    # A reconnect must not log in silently (it would also be a new session): forget the password.
    raw.password = b""
    connection = ReadOnlyConnection(raw, parsed)
    if not connection.session_read_only():
        connection.close()
        raise AuditConnectionError(f"{parsed.address} did not make the session read-only")
    return connection
