"""The one code path through which the audit talks to a server, and it only reads.

An audit runs against production servers, often with more privileges than it needs, so "read
only" is enforced in three independent layers:

1. ``check_read_only`` refuses, before a byte is sent, any statement that is not a SELECT, a
   SHOW, the exact ``SET SESSION TRANSACTION READ ONLY`` or one of the session's own time limits
   set to a number (``SET SESSION lock_wait_timeout = 5``, ``max_statement_time``,
   ``max_execution_time``), and SELECTs that write
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
3. The grants: the documentation tells to audit as a user with SELECT on the audited schemas
   and on performance_schema's table_io_waits_summary_by_table, nothing else (docs/audit.md).

What this does not stop: SELECTs that are merely expensive or wait (``SLEEP()``, ``GET_LOCK()``),
so the audit's own queries must stay cheap, and each is bounded in time: ``SessionLimits`` sets
the session's ``lock_wait_timeout`` and its statement timeout (MariaDB's ``max_statement_time``,
MySQL's ``max_execution_time``) right after connect, and the driver's read timeout is the last
resort. ``max_queries_per_second`` spaces the statements out for a busy server.

What the driver sends besides the guarded statements (the server's general log, checked in the
tests): ``SET NAMES utf8mb4`` and the init command at connect, ``SET AUTOCOMMIT = 1`` when the
server's default is autocommit off, and COM_QUIT at close.

TLS follows the mysql client's ``ssl-mode`` (``linter.audit.tls``): when the mode requires TLS and
the server does not offer it, or its certificate fails the mode's checks, the connection stops
before the handshake response, so neither the user name nor the password's scramble is sent.

The password is taken from the caller, the ``--defaults-file`` or ``MYSQL_PWD``, never from the
DSN (a DSN ends up in shell history, process lists and CI logs), and it appears in no repr, log or
exception message.
"""

from __future__ import annotations

import os
import re
import ssl
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from pydantic import BaseModel, ConfigDict

from linter.audit.option_files import ClientOptions, OptionFileError, read_option_file
from linter.audit.tls import TlsError, TlsMode, TlsOptions

__all__ = [
    "AuditConnectionError",
    "AuditQueryError",
    "Dsn",
    "DsnError",
    "ReadOnlyConnection",
    "SessionLimits",
    "TlsRefused",
    "WriteRefused",
    "check_read_only",
    "connect",
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


class TlsRefused(AuditConnectionError):
    """The TLS the user required is not there (or not verified): nothing was logged in."""


#: the TLS options a DSN may carry (``ssl_mode`` is read as ``ssl-mode``)
_DSN_TLS = ("ssl-mode", "ssl-ca", "ssl-cert", "ssl-key")


# --- the DSN ---------------------------------------------------------------------------------


class Dsn(BaseModel):
    """Where to connect and what to audit: ``mysql://user@host:port/?schemas=a,b`` or
    ``mysql://user@/?socket=/path/mysqld.sock&schemas=a``, with the TLS options of the mysql
    client as parameters (``?ssl-mode=VERIFY_IDENTITY&ssl-ca=/etc/mysql/ca.pem``). Holds no
    password by design."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    user: str
    host: str | None = None
    port: int = DEFAULT_PORT
    socket: str | None = None
    schemas: list[str] = []
    ssl_mode: str | None = None
    ssl_ca: str | None = None
    ssl_cert: str | None = None
    ssl_key: str | None = None

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
        query = {name.replace("_", "-"): values
                 for name, values in parse_qs(parts.query, keep_blank_values=True, strict_parsing=False).items()}
        unknown = sorted(set(query) - {"schemas", "socket", *_DSN_TLS})
        if unknown:
            raise DsnError(f"unknown DSN parameter(s): {', '.join(unknown)} "
                           f"(known: schemas, socket, {', '.join(_DSN_TLS)})")
        tls = {name.replace("-", "_"): unquote(query[name][-1]) for name in _DSN_TLS if name in query}
        if "ssl_mode" in tls:
            try:
                TlsMode.parse(tls["ssl_mode"])
            except TlsError as error:
                raise DsnError(str(error)) from None
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
                   port=port or DEFAULT_PORT, socket=socket, schemas=list(dict.fromkeys(schemas)), **tls)

    @property
    def address(self) -> str:
        """``host:port`` or ``socket /path``: what error messages name."""
        if self.socket is not None:
            return f"socket {self.socket}"
        host = f"[{self.host}]" if self.host and ":" in self.host else self.host
        return f"{host}:{self.port}"


# --- the password ----------------------------------------------------------------------------


def resolve_password(password: str | None, from_file: str | None = None,
                     environ: Mapping[str, str] | None = None) -> str | None:
    """The password to use: the one given (from --password-env), else the ``--defaults-file``'s
    (``from_file``), else ``MYSQL_PWD``, else none. An explicit defaults file outranks the
    ambient environment variable, as in the mysql client (option files over MYSQL_PWD)."""
    if password is not None:
        return password
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


#: the session variables the audit may set: how long one statement may wait for a lock or run
_SESSION_LIMITS = frozenset({"LOCK_WAIT_TIMEOUT", "MAX_STATEMENT_TIME", "MAX_EXECUTION_TIME"})
_DIGITS = re.compile(r"[0-9]+")


def _is_session_limit(tokens: Sequence[str]) -> bool:
    """``SET SESSION <limit> = 12`` or ``= 0.5``, exactly: one of the session's time limits, a
    plain decimal number, nothing after it."""
    if len(tokens) not in (5, 7) or list(tokens[:2]) != ["SET", "SESSION"] or tokens[2] not in _SESSION_LIMITS:
        return False
    if tokens[3] != "=" or not _DIGITS.fullmatch(tokens[4]):
        return False
    return len(tokens) == 5 or (tokens[5] == "." and bool(_DIGITS.fullmatch(tokens[6])))


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
        if tokens != READ_ONLY_STATEMENT.split() and not _is_session_limit(tokens):
            raise WriteRefused(f"the only SETs allowed are {READ_ONLY_STATEMENT} and SET SESSION "
                               f"{'/'.join(sorted(name.lower() for name in _SESSION_LIMITS))} = <number>")
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


# --- the session's limits ------------------------------------------------------------------


@dataclass(frozen=True)
class SessionLimits:
    """How long one statement of the audit may wait and run, and how fast they may follow each
    other. Why: an audit on production must never queue behind a lock for long (a LOCK TABLES,
    an ALTER waiting for its metadata lock) nor run a statement that takes minutes; what cannot
    be read in time is skipped with the reason (linter.audit.coverage)."""

    #: seconds a statement may wait for a metadata lock (the session's lock_wait_timeout; the
    #: server's default is a year)
    lock_wait_timeout: int = 5
    #: seconds a statement may run (MariaDB's max_statement_time, MySQL's max_execution_time for
    #: SELECTs); 0: no limit
    statement_timeout: float = 30.0
    #: at most this many statements a second (None: as fast as the server answers)
    max_queries_per_second: float | None = None

    def __post_init__(self) -> None:
        if self.lock_wait_timeout < 1:
            raise ValueError("lock_wait_timeout is at least 1 second (the server's minimum)")
        if self.statement_timeout < 0:
            raise ValueError("statement_timeout is 0 (none) or more seconds")
        if self.max_queries_per_second is not None and self.max_queries_per_second <= 0:
            raise ValueError("max_queries_per_second must be more than 0")

    @property
    def read_timeout(self) -> float | None:
        """The driver's own last resort: a reply that has not come long after the server should
        have stopped the statement (a server that ignores its limits, a network that drops the
        reply) ends the connection instead of hanging."""
        if self.statement_timeout <= 0:
            return None
        return max(self.statement_timeout, float(self.lock_wait_timeout)) + 30.0


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

    def __init__(self, raw: Any, dsn: Dsn, limits: SessionLimits | None = None) -> None:
        self._raw = raw
        self._dsn = dsn
        self.limits = limits or SessionLimits()
        #: statements sent through ``query``, and seconds spent waiting for the throttle
        self.statements = 0
        self.throttled_seconds = 0.0
        #: the session variable that bounds a statement's time, None when the server has none
        self.statement_timeout_variable: str | None = None
        #: what the user should know about the connection (TLS settings, limits not available)
        self.notes: list[str] = []
        self._last_sent: float | None = None

    @property
    def dsn(self) -> Dsn:
        return self._dsn

    @property
    def mariadb(self) -> bool:
        """The server is MariaDB (its handshake's version says so: ``5.5.5-10.11.6-MariaDB``)."""
        return "mariadb" in str(getattr(self._raw, "server_version", "") or "").lower()

    @property
    def tls(self) -> str | None:
        """``TLSv1.3 TLS_AES_256_GCM_SHA384`` when the link is encrypted, else None."""
        sock = getattr(self._raw, "_sock", None)
        if not isinstance(sock, ssl.SSLSocket):
            return None
        cipher = sock.cipher()
        return f"{sock.version()} {cipher[0]}" if cipher else str(sock.version())

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

    def _throttle(self) -> None:
        """Wait until 1 / max_queries_per_second has passed since the last statement started."""
        rate = self.limits.max_queries_per_second
        now = time.monotonic()
        if rate is not None and self._last_sent is not None:
            wait = self._last_sent + 1.0 / rate - now
            if wait > 0:
                time.sleep(wait)
                self.throttled_seconds += wait
                now = time.monotonic()
        self._last_sent = now

    def _execute(self, sql: str, args: Sequence[Any] | Mapping[str, Any] | None,
                 cursor_class: Any) -> tuple[list[Any], int]:
        import pymysql

        if args is not None:  # check what will be sent, arguments included
            sql = self._raw.cursor().mogrify(sql, args)
        check_read_only(sql, self._backslash_escapes())
        self._throttle()
        self.statements += 1
        try:
            with self._raw.cursor(cursor_class) as cursor:
                cursor.execute(sql)
                return list(cursor.fetchall()), int(cursor.warning_count or 0)
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

        return self._execute(sql, args, pymysql.cursors.Cursor)[0]

    def query_warned(self, sql: str, args: Sequence[Any] | Mapping[str, Any] | None = None
                     ) -> tuple[list[tuple[Any, ...]], list[int]]:
        """Like ``query``, with the codes of the warnings the statement raised (one SHOW
        WARNINGS more, only when there are some): a bounded read says so with one (MariaDB's
        1931 when LIMIT ROWS EXAMINED stopped it)."""
        import pymysql

        rows, warnings = self._execute(sql, args, pymysql.cursors.Cursor)
        if not warnings:
            return rows, []
        return rows, [int(code) for _, code, _ in self._execute("SHOW WARNINGS", None, pymysql.cursors.Cursor)[0]]

    def query_dicts(self, sql: str, args: Sequence[Any] | Mapping[str, Any] | None = None
                    ) -> list[dict[str, Any]]:
        """Like ``query``, each row a dict by column name."""
        import pymysql

        return self._execute(sql, args, pymysql.cursors.DictCursor)[0]

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

    def apply_limits(self) -> None:
        """Set the session's lock wait and statement timeouts (see ``SessionLimits``). The
        statement timeout is MariaDB's max_statement_time (seconds, every statement) or MySQL's
        max_execution_time (milliseconds, SELECTs); a server with neither gets a note."""
        limits = self.limits
        self.query(f"SET SESSION lock_wait_timeout = {int(limits.lock_wait_timeout)}")
        if limits.statement_timeout <= 0:
            return
        seconds = f"{limits.statement_timeout:.6f}".rstrip("0").rstrip(".")
        choices = [("max_statement_time", seconds), ("max_execution_time", str(round(limits.statement_timeout * 1000)))]
        if not self.mariadb:
            choices.reverse()
        for name, value in choices:
            try:
                self.query(f"SET SESSION {name} = {value}")
            except AuditQueryError as error:
                if error.code != 1193:  # ER_UNKNOWN_SYSTEM_VARIABLE: the other server's name
                    raise
                continue
            self.statement_timeout_variable = name
            return
        self.notes.append(f"this server has no statement timeout (neither max_statement_time nor "
                          f"max_execution_time): statements are bounded only by lock_wait_timeout "
                          f"({limits.lock_wait_timeout} s) and the client's read timeout")


def _link_class() -> Any:
    """PyMySQL's Connection with one check before the handshake response: when the mode requires
    TLS and the server's greeting does not offer it, stop there (the response carries the user
    name and the password's scramble). PREFERRED falls back to plain text only here, whatever
    the driver's version would do on its own."""
    import pymysql
    from pymysql.constants import CLIENT

    class AuditLink(pymysql.connections.Connection):  # type: ignore[misc]
        tls_mode = TlsMode.PREFERRED

        def _request_authentication(self) -> None:
            offered = bool(self.server_capabilities & CLIENT.SSL)
            if self.tls_mode.required and not offered:
                raise TlsRefused(f"ssl-mode {self.tls_mode.value} and the server does not offer TLS: "
                                 "not logged in (no user name or password was sent)")
            if self.ssl and not offered:
                self.ssl = False
                self.client_flag &= ~CLIENT.SSL
            super()._request_authentication()

    return AuditLink


def _tls_options(dsn: Dsn, file: ClientOptions, ssl_mode: str | None, ssl_ca: str | None,
                 ssl_cert: str | None, ssl_key: str | None) -> TlsOptions:
    """Each TLS option from the flags, else the DSN, else the defaults file."""

    def pick(*values: str | None) -> str | None:
        return next((value for value in values if value is not None), None)

    return TlsOptions.resolve(
        pick(ssl_mode, dsn.ssl_mode, file.ssl_mode), pick(ssl_ca, dsn.ssl_ca, file.ssl_ca),
        pick(ssl_cert, dsn.ssl_cert, file.ssl_cert), pick(ssl_key, dsn.ssl_key, file.ssl_key),
        socket=dsn.socket is not None, mariadb_ssl=file.ssl, verify_server_cert=file.verify_server_cert)


def _tls_failure(error: Exception, tls: TlsOptions) -> str | None:
    """Why TLS failed, when the handshake or the certificate was the cause of ``error`` (then no
    credential was sent: the handshake comes first); None otherwise."""
    cause = error.__cause__ or error.__context__
    if isinstance(cause, ssl.SSLCertVerificationError):
        return (f"the server's TLS certificate failed ssl-mode {tls.describe()}: "
                f"{str(cause.verify_message).rstrip('.')}; not logged in (no user name or password was sent)")
    if isinstance(cause, ssl.SSLError):
        return (f"the TLS handshake failed ({cause.reason or cause}); not logged in "
                "(no user name or password was sent)")
    return None


def connect(dsn: str | Dsn, password: str | None = None, defaults_file: str | None = None,
            *, connect_timeout: float = 10.0, ssl_mode: str | None = None, ssl_ca: str | None = None,
            ssl_cert: str | None = None, ssl_key: str | None = None,
            limits: SessionLimits | None = None) -> ReadOnlyConnection:
    """Connect for an audit: parse the DSN, find the password (see ``resolve_password``) and the
    TLS settings (``ssl_*``: the flags, over the DSN's, over the defaults file's), set the
    session's limits, make the session read-only and check that it is."""
    import pymysql

    parsed = dsn if isinstance(dsn, Dsn) else Dsn.parse(dsn)
    try:
        file = read_option_file(defaults_file) if defaults_file is not None else ClientOptions()
        tls = _tls_options(parsed, file, ssl_mode, ssl_ca, ssl_cert, ssl_key)
        context = tls.context()
    except (OptionFileError, TlsError) as error:
        raise AuditConnectionError(str(error)) from None
    secret = resolve_password(password, file.password)
    limits = limits or SessionLimits()
    raw = _link_class()(
        host=parsed.host or "localhost", port=parsed.port, unix_socket=parsed.socket,
        user=parsed.user, password=(secret or "").encode("utf-8"),
        client_flag=0,  # PyMySQL adds its CAPABILITIES, which lack MULTI_STATEMENTS
        init_command=READ_ONLY_STATEMENT, autocommit=True, charset="utf8mb4",
        connect_timeout=connect_timeout, read_timeout=limits.read_timeout, local_infile=False,
        program_name="innolint-audit", ssl=context, ssl_disabled=context is None, defer_connect=True)
    raw.tls_mode = tls.mode
    try:
        raw.connect()
    except TlsRefused as refused:
        raise TlsRefused(f"cannot connect to {parsed.address} as {parsed.user}: {refused}") from None
    except pymysql.err.MySQLError as error:
        failed = f"cannot connect to {parsed.address} as {parsed.user}"
        why_tls = _tls_failure(error, tls)
        if why_tls is not None:
            raise TlsRefused(f"{failed}: {why_tls}") from None
        reason = _scrub(str(error.args[1]) if len(error.args) > 1 else str(error), secret)
        raise AuditConnectionError(f"{failed}: {reason}") from None
    # A reconnect must not log in silently (it would also be a new session): forget the password.
    raw.password = b""
    connection = ReadOnlyConnection(raw, parsed, limits)
    if tls.note:
        connection.notes.append(tls.note)
    if file.ignored:
        connection.notes.append(f"not supported, ignored from the defaults file: {', '.join(file.ignored)}")
    if tls.mode.required and connection.tls is None:  # belt and braces: the check above stops it first
        connection.close()
        raise TlsRefused(f"{parsed.address}: ssl-mode {tls.mode.value} and the connection is not encrypted")
    try:
        connection.apply_limits()
    except AuditQueryError as error:
        connection.close()
        raise AuditConnectionError(f"{parsed.address} refused the session's time limits: {error}") from None
    if not connection.session_read_only():
        connection.close()
        raise AuditConnectionError(f"{parsed.address} did not make the session read-only")
    return connection
