"""The audit's connection only reads, and never shows the password.

The first half needs no server: refusals must happen before any byte is sent, which a fake socket
proves. The second half uses the private MariaDB server with a least-privilege user.
"""

from __future__ import annotations

import io
import itertools
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pymysql
import pytest
from pymysql.constants import CLIENT

from linter.audit.option_files import OptionFileError, read_option_file
from linter.audit.connection import (
    AuditConnectionError,
    AuditQueryError,
    Dsn,
    DsnError,
    ReadOnlyConnection,
    WriteRefused,
    check_read_only,
    connect,
    resolve_password,
)
from tests.mariadb import MariaDB

REFUSED = [
    "INSERT INTO t VALUES (1)",
    "insert into t values (1)",
    "UPDATE t SET a = 1",
    "DELETE FROM t",
    "REPLACE INTO t VALUES (1)",
    "DROP TABLE t",
    "CREATE TABLE t (a INT)",
    "ALTER TABLE t ADD COLUMN b INT",
    "TRUNCATE t",
    "GRANT ALL ON *.* TO x",
    "SET GLOBAL read_only = 0",
    "SET SESSION sql_mode = ''",
    "SET SESSION TRANSACTION READ WRITE",
    "SET SESSION TRANSACTION READ ONLY, GLOBAL read_only = 0",
    "SET @@session.transaction_read_only = 0",
    "SET autocommit = 0",
    "SELECT 1; DROP TABLE x",
    "SELECT 1;DROP TABLE x;",
    "SELECT ';'; DROP TABLE x",
    "/* c */ INSERT INTO t VALUES (1)",
    "-- c\nINSERT INTO t VALUES (1)",
    "# c\nDELETE FROM t",
    "/*!50000 DROP TABLE t */",
    "SELECT 1 /*! INTO OUTFILE '/tmp/x' */",
    "SELECT 1 /*M!100000 INTO OUTFILE '/tmp/x' */",
    "SELECT * FROM t INTO OUTFILE '/tmp/t.csv'",
    "SELECT * FROM t INTO DUMPFILE '/tmp/t.bin'",
    "SELECT a INTO @v FROM t",
    "SELECT * FROM t FOR UPDATE",
    "SELECT * FROM t WHERE a = 1 for  update nowait",
    "SELECT * FROM t FOR SHARE",
    "SELECT * FROM t LOCK IN SHARE MODE",
    "CALL p()",
    "DO sleep(1)",
    "HANDLER t OPEN",
    "LOAD DATA INFILE '/etc/passwd' INTO TABLE t",
    "LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE t",
    "KILL 1",
    "FLUSH TABLES",
    "LOCK TABLES t READ",
    "EXPLAIN ANALYZE DELETE FROM t",
    "ANALYZE TABLE t",
    "WITH x AS (SELECT 1) DELETE FROM t",
    "(SELECT 1) UNION (SELECT 2)",
    "",
    "   ",
    "/* only a comment */",
    ";",
    "SELECT 'unterminated",
    "SELECT 1 /* unterminated",
    # a string that ends differently with and without NO_BACKSLASH_ESCAPES
    "SELECT '\\' INTO OUTFILE '/tmp/x' -- '",
    # the session's time limits: exactly SET SESSION <limit> = <number>, nothing else
    "SET SESSION lock_wait_timeout = 5, GLOBAL read_only = 0",
    "SET SESSION lock_wait_timeout = 5; SET GLOBAL read_only = 0",
    "SET GLOBAL lock_wait_timeout = 5",
    "SET lock_wait_timeout = 5",
    "SET SESSION lock_wait_timeout = @x",
    "SET SESSION lock_wait_timeout = '5'",
    "SET SESSION lock_wait_timeout = (SELECT 5)",
    "SET SESSION max_statement_time = 1e9",
    "SET SESSION max_statement_time = 0.5.5",
    "SET SESSION max_statement_time = -1",
    "SET SESSION lock_wait_timeout = \uff15",  # a full-width digit
    "SET SESSION sql_mode = 5",
    "SET SESSION innodb_lock_wait_timeout = 5",
    "SET STATEMENT max_statement_time = 1 FOR DELETE FROM t",
]

ACCEPTED = [
    "SELECT 1",
    "select 1;",
    "SELECT 1 ; -- trailing comment",
    "  \n SELECT 1",
    "/* leading */ SELECT 1",
    "-- leading\nSELECT 1",
    "# leading\nSHOW TABLES",
    "/*+ MAX_EXECUTION_TIME(1000) */ SELECT 1",
    "SELECT /*+ MAX_EXECUTION_TIME(1000) */ 1",
    "SHOW CREATE TABLE `app`.`orders`",
    "SHOW GRANTS",
    "SHOW GLOBAL STATUS LIKE 'Innodb%'",
    "SELECT 'DROP TABLE x; INSERT INTO y' AS s",
    "SELECT `into`, \"for update\" FROM `select`",
    "SELECT 'it''s', 'a\\\\b'",
    "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA IN ('a', 'b')",
    "SELECT a--1 FROM t",
    "SET SESSION TRANSACTION READ ONLY",
    "set  session\ttransaction read only;",
    "SET SESSION lock_wait_timeout = 5",
    "SET SESSION max_statement_time = 0.5",
    "set session max_execution_time=30000;",
]


@pytest.mark.parametrize("sql", REFUSED)
def test_writes_and_tricks_are_refused(sql: str) -> None:
    with pytest.raises(WriteRefused):
        check_read_only(sql)


@pytest.mark.parametrize("sql", ACCEPTED)
def test_reads_are_accepted(sql: str) -> None:
    check_read_only(sql)


def test_backslash_mode_decides_where_a_string_ends() -> None:
    check_read_only("SELECT 'a\\'b'", backslash_escapes=True)
    with pytest.raises(WriteRefused, match="unterminated"):
        check_read_only("SELECT 'a\\'b'")  # unterminated without backslash escapes
    tricky = "SELECT '\\' INTO OUTFILE '/tmp/x' -- '"
    check_read_only(tricky, backslash_escapes=True)  # one string: harmless on such a server
    with pytest.raises(WriteRefused):
        check_read_only(tricky, backslash_escapes=False)
    with pytest.raises(WriteRefused):
        check_read_only(tricky)  # unknown mode: both readings must pass


class RecordingSocket:
    """Stands in for the server's socket and records every byte the client sends."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.sent.append(bytes(data))

    def settimeout(self, timeout: float | None) -> None:
        pass

    def close(self) -> None:
        pass


def offline_connection() -> tuple[ReadOnlyConnection, RecordingSocket]:
    """A ReadOnlyConnection whose PyMySQL connection never connected: its socket records."""
    raw: Any = pymysql.connect(host="127.0.0.1", user="nobody", defer_connect=True)
    fake = RecordingSocket()
    raw._sock = fake
    raw._rfile = io.BytesIO(b"")  # any reply read fails as a lost connection
    raw._current_timeout, raw._next_seq_id = None, 0  # what PyMySQL's connect() would set
    return ReadOnlyConnection(raw, Dsn(user="nobody", host="127.0.0.1")), fake


@pytest.mark.parametrize("sql", ["INSERT INTO t VALUES (1)", "SELECT 1; DROP TABLE x",
                                 "/* c */ DROP TABLE t", "SELECT * FROM t INTO OUTFILE '/x'",
                                 "SET GLOBAL read_only = 0", "DO sleep(1)"])
def test_refusal_happens_before_anything_is_sent(sql: str) -> None:
    connection, fake = offline_connection()
    with pytest.raises(WriteRefused):
        connection.query(sql)
    with pytest.raises(WriteRefused):
        connection.query_dicts(sql)
    assert fake.sent == []


def test_an_accepted_read_does_reach_the_socket() -> None:
    """The other side of the test above: the recording socket does see what is sent."""
    connection, fake = offline_connection()
    with pytest.raises(AuditConnectionError, match="lost the connection to 127.0.0.1:3306"):
        connection.query("SELECT 1")
    assert any(b"SELECT 1" in packet for packet in fake.sent)


def test_dsn_forms() -> None:
    assert Dsn.parse("mysql://ro@db1:3307/?schemas=a,b") == Dsn(
        user="ro", host="db1", port=3307, schemas=["a", "b"])
    assert Dsn.parse("mysql://ro@/?socket=/run/mysqld/mysqld.sock") == Dsn(
        user="ro", socket="/run/mysqld/mysqld.sock")
    assert Dsn.parse("mysql://ro@localhost/?socket=/s&schemas=a").socket == "/s"
    assert Dsn.parse("mysql://r%40o@[::1]/shop").model_dump() == {
        "user": "r@o", "host": "::1", "port": 3306, "socket": None, "schemas": ["shop"],
        "ssl_mode": None, "ssl_ca": None, "ssl_cert": None, "ssl_key": None}
    assert Dsn.parse("mysql://ro@db1/?schemas=a,b,a").schemas == ["a", "b"]
    assert Dsn.parse("mysql://ro@db1:3307/").address == "db1:3307"
    assert Dsn.parse("mysql://ro@[::1]:3307/").address == "[::1]:3307"


@pytest.mark.parametrize("dsn", ["mysql://ro:Hunter2Secret@db1/", "mysql://ro:@db1/",
                                 "mysql://ro@db1:Hunter2Secret/", "http://ro@db1/",
                                 "mysql://db1/", "mysql://ro@db1/?password=Hunter2Secret",
                                 "mysql://ro@db1/?schemas=a,,b", "mysql://ro@db1/x?schemas=y",
                                 "mysql://ro@db1/?socket=/s", "mysql://ro@/"])
def test_bad_dsns_are_refused_without_echoing_them(dsn: str) -> None:
    with pytest.raises(DsnError) as refused:
        Dsn.parse(dsn)
    assert "Hunter2Secret" not in str(refused.value)


def test_a_password_in_the_dsn_says_where_to_put_it() -> None:
    with pytest.raises(DsnError, match="MYSQL_PWD.*defaults-file"):
        Dsn.parse("mysql://ro:pw@db1/")


def test_defaults_file_password(tmp_path: Path) -> None:
    option_file = tmp_path / "my.cnf"
    option_file.write_text("!includedir /etc/mysql/conf.d/\n[mysqld]\npassword=server\n"
                           "[client]\nskip-ssl\nuser = ro\npassword = \"p w#1\"\n"
                           "[mysql]\npassword=other\n")
    assert read_option_file(str(option_file)).password == "p w#1"
    (tmp_path / "none.cnf").write_text("[client]\nuser=ro\n")
    assert read_option_file(str(tmp_path / "none.cnf")).password is None
    with pytest.raises(OptionFileError, match="cannot read the defaults file"):
        read_option_file(str(tmp_path / "missing.cnf"))
    with pytest.raises(AuditConnectionError, match="cannot read the defaults file"):
        connect("mysql://ro@127.0.0.1/", defaults_file=str(tmp_path / "missing.cnf"))


def test_option_file_tls_options(tmp_path: Path) -> None:
    """As the clients read an option file: [client] and [client-mariadb], `_` or `-`, a `loose-`
    prefix, quotes, the later of `ssl` and `skip-ssl`; unsupported TLS options named."""
    option_file = tmp_path / "my.cnf"
    option_file.write_text("[mysqld]\nssl-ca=/server/ca.pem\n[client]\nloose_ssl_mode = verify_ca\n"
                           "ssl_ca='/etc/my ca.pem'\nssl\nssl-crl=/etc/crl.pem\n[client-mariadb]\nskip-ssl\n"
                           "ssl-verify-server-cert=0\nssl-cert=c.pem\nssl-key=k.pem\ntls_version=TLSv1.3\n"
                           "[mysql]\nssl-mode=DISABLED\n")
    read = read_option_file(str(option_file))
    assert (read.ssl_mode, read.ssl_ca, read.ssl_cert, read.ssl_key) == ("verify_ca", "/etc/my ca.pem", "c.pem", "k.pem")
    assert read.ssl is False and read.verify_server_cert is False
    assert read.ignored == ("ssl-crl", "tls-version")


def test_password_precedence(tmp_path: Path) -> None:
    option_file = tmp_path / "my.cnf"
    option_file.write_text("[client]\npassword=from-file\n")
    env = {"MYSQL_PWD": "from-env"}
    from_file = read_option_file(str(option_file)).password
    assert resolve_password("given", from_file, env) == "given"
    assert resolve_password(None, from_file, env) == "from-file"
    assert resolve_password(None, None, env) == "from-env"
    assert resolve_password(None, None, {}) is None
    assert resolve_password("", None, env) == ""  # an explicit empty password is a choice


def test_unreachable_server_names_the_address_not_the_password() -> None:
    with socket_closed_port() as port:
        with pytest.raises(AuditConnectionError) as failed:
            connect(f"mysql://ro@127.0.0.1:{port}/", password="Hunter2Secret", connect_timeout=2)
    assert f"127.0.0.1:{port}" in str(failed.value)
    assert "Hunter2Secret" not in str(failed.value)
    assert failed.value.__cause__ is None and failed.value.__suppress_context__


class socket_closed_port:
    """A port on 127.0.0.1 that nothing listens on (bound, never listening, while in use)."""

    def __enter__(self) -> int:
        import socket

        self._socket = socket.socket()
        self._socket.bind(("127.0.0.1", 0))
        return int(self._socket.getsockname()[1])

    def __exit__(self, *exc_info: object) -> None:
        self._socket.close()


# --- against the private server --------------------------------------------------------------

PASSWORD = "Ro-" + secrets.token_hex(8) + "'\"%;"  # quotes and % must survive the round trip


@pytest.fixture(scope="module")
def readonly_user(mariadb: MariaDB) -> Iterator[str]:
    """A user with the grants docs/audit.md names (SELECT on the audited schema and on
    performance_schema's I/O counters), and a schema to read."""
    escaped = PASSWORD.replace("\\", "\\\\").replace("'", "\\'")
    mariadb.sql(f"""
        CREATE DATABASE IF NOT EXISTS audit_app;
        CREATE OR REPLACE TABLE audit_app.orders (
            id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
            customer_id INT NOT NULL, note JSON, KEY (customer_id)) ENGINE=InnoDB;
        INSERT INTO audit_app.orders (customer_id, note) VALUES (1, '{{"a": 1}}'), (2, NULL);
        CREATE OR REPLACE USER innolint_ro@'%' IDENTIFIED BY '{escaped}';
        GRANT SELECT ON audit_app.* TO innolint_ro@'%';
        GRANT SELECT ON performance_schema.table_io_waits_summary_by_table TO innolint_ro@'%';
    """)
    yield "innolint_ro"
    mariadb.sql("DROP USER IF EXISTS innolint_ro@'%'; DROP DATABASE IF EXISTS audit_app")


@pytest.fixture
def audit(mariadb: MariaDB, readonly_user: str, monkeypatch: pytest.MonkeyPatch
          ) -> Iterator[ReadOnlyConnection]:
    """Connected as the read-only user through TCP, the password from MYSQL_PWD."""
    monkeypatch.setenv("MYSQL_PWD", PASSWORD)
    with connect(f"mysql://{readonly_user}@127.0.0.1:{mariadb.port}/?schemas=audit_app") as conn:
        yield conn


def test_reads_what_the_audit_needs(audit: ReadOnlyConnection) -> None:
    assert audit.dsn.schemas == ["audit_app"]
    (table, ddl), = audit.query("SHOW CREATE TABLE audit_app.orders")
    assert table == "orders" and "PRIMARY KEY (`id`)" in ddl
    rows = audit.query_dicts(
        "SELECT TABLE_NAME, ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = %s",
        ["audit_app"])
    assert rows == [{"TABLE_NAME": "orders", "ENGINE": "InnoDB"}]
    audit.query("SELECT COUNT(*) FROM audit_app.orders")  # warm the table's I/O counters
    io_waits = audit.query(
        "SELECT OBJECT_NAME, COUNT_READ FROM performance_schema.table_io_waits_summary_by_table "
        "WHERE OBJECT_SCHEMA = %s", ("audit_app",))
    assert [name for name, _ in io_waits] == ["orders"]
    assert "MariaDB" in audit.server_version()


def test_session_is_read_only_and_single_statement(audit: ReadOnlyConnection) -> None:
    assert audit.session_read_only()
    assert audit.query("SELECT @@session.tx_read_only") == [(1,)]
    assert not audit._raw.client_flag & CLIENT.MULTI_STATEMENTS
    with pytest.raises(pymysql.err.ProgrammingError):  # the protocol refuses it too
        with audit._raw.cursor() as cursor:
            cursor.execute("SELECT 1; SELECT 2")


def test_a_write_is_refused_before_the_server_and_by_it(
        mariadb: MariaDB, audit: ReadOnlyConnection, readonly_user: str) -> None:
    with pytest.raises(WriteRefused):
        audit.query("INSERT INTO audit_app.orders (customer_id) VALUES (3)")
    with pytest.raises(WriteRefused):
        audit.query("SELECT * FROM audit_app.orders INTO OUTFILE '/tmp/innolint-should-not-exist'")
    # belt and braces: bypassing the guard, the grants refuse the write
    with pytest.raises(pymysql.err.OperationalError) as denied:
        with audit._raw.cursor() as cursor:
            cursor.execute("INSERT INTO audit_app.orders (customer_id) VALUES (3)")
    assert denied.value.args[0] == 1142  # ER_TABLEACCESS_DENIED_ERROR
    assert mariadb.sql("SELECT COUNT(*) FROM audit_app.orders") == [(2,)]


def test_read_only_session_stops_writes_even_with_all_privileges(
        mariadb: MariaDB, readonly_user: str) -> None:
    """Layer 2 alone: root may write, but not in the audit's session."""
    with connect(f"mysql://root@/?socket={mariadb.socket}", password="") as root:
        assert root.session_read_only()
        with pytest.raises(pymysql.err.MySQLError) as refused:
            with root._raw.cursor() as cursor:
                cursor.execute("INSERT INTO audit_app.orders (customer_id) VALUES (4)")
        assert refused.value.args[0] == 1792  # ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
    assert mariadb.sql("SELECT COUNT(*) FROM audit_app.orders") == [(2,)]


def test_server_errors_become_audit_query_errors(audit: ReadOnlyConnection) -> None:
    with pytest.raises(AuditQueryError) as failed:
        audit.query("SELECT * FROM audit_app.missing")
    assert failed.value.code == 1146  # ER_NO_SUCH_TABLE


def test_password_from_a_defaults_file(mariadb: MariaDB, readonly_user: str, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MYSQL_PWD", raising=False)
    option_file = tmp_path / "audit.cnf"
    option_file.write_text(f"[client]\npassword={PASSWORD}\n")
    dsn = f"mysql://{readonly_user}@127.0.0.1:{mariadb.port}/"
    with connect(dsn, None, str(option_file)) as conn:
        assert conn.query("SELECT CURRENT_USER()") == [(f"{readonly_user}@%",)]


def test_the_password_never_shows(mariadb: MariaDB, audit: ReadOnlyConnection,
                                  readonly_user: str) -> None:
    assert PASSWORD not in repr(audit)
    assert repr(audit) == f"ReadOnlyConnection({readonly_user}@127.0.0.1:{mariadb.port})"
    assert PASSWORD not in repr(audit.dsn) + str(audit.dsn) + audit.dsn.model_dump_json()
    assert PASSWORD.encode() not in audit._raw.password  # forgotten once logged in
    for sql in ("INSERT INTO t VALUES (1)", "SELECT * FROM audit_app.missing"):
        with pytest.raises((WriteRefused, AuditQueryError)) as failed:
            audit.query(sql)
        assert PASSWORD not in str(failed.value) + repr(failed.value)
    dsn = f"mysql://{readonly_user}@127.0.0.1:{mariadb.port}/"
    with pytest.raises(AuditConnectionError) as denied:
        connect(dsn, password=PASSWORD + "-wrong")
    message = str(denied.value) + repr(denied.value)
    assert "Access denied" in message and f"127.0.0.1:{mariadb.port}" in message
    assert PASSWORD not in message


# --- evasions, proven against the server ---------------------------------------------------------


def test_dashes_then_any_control_character_start_a_comment() -> None:
    """MariaDB reads `--` followed by a space or a control character as a comment; so does the
    guard (the server agrees: test_generated_evasions_never_write_through_the_guard)."""
    for code in [*range(0x01, 0x0A), *range(0x0B, 0x21), 0x7F]:  # (after a newline the comment is empty)
        with pytest.raises(WriteRefused, match="INTO"):
            check_read_only(f"SELECT 1 --{chr(code)} '\nINTO OUTFILE '/tmp/x' -- '")
    check_read_only("SELECT 5 --3")  # arithmetic: `5 - -3`
    with pytest.raises(WriteRefused, match="not ASCII"):
        check_read_only("SELECT 5 --\u00853")
    with pytest.raises(WriteRefused, match="NUL"):
        check_read_only("SELECT 1 # x\0 INTO OUTFILE '/tmp/x'")


@pytest.mark.parametrize("sql", [
    "SELECT \"\\\" INTO OUTFILE '/tmp/x' -- \"",  # an identifier under ANSI_QUOTES: no escapes in it
    "SELECT `\\` INTO OUTFILE '/tmp/x' -- `",
    "SELECT 1 /*m!100000 INTO OUTFILE '/tmp/x' */",
])
def test_readings_of_other_sql_modes_are_refused_too(sql: str) -> None:
    with pytest.raises(WriteRefused):
        check_read_only(sql, backslash_escapes=True)


#: comment openers, as the server may or may not read them
_OPENERS = ["-- ", "--\t", "--\x01", "--\x0b", "--\x1f", "--\x7f", "--\x85", "--\u00a0", "--", "#", "/*", "/* x",
            "--\x00", "#\x00"]
#: what a hidden clause follows: line ends of several kinds
_BREAKS = ["\n", "\r\n", "\r", "\x0b", "\x85", "\u2028", ""]
_QUOTES = ["'", '"', "`"]


def _evasions(target: str) -> list[tuple[str, str]]:
    """(name, SQL) of statements that each try to write `target/<name>` past the guard."""
    made: list[tuple[str, str]] = []

    def add(template: str) -> None:
        name = f"f{len(made)}"
        made.append((name, template.replace("PAYLOAD", f"INTO OUTFILE '{target}/{name}'")))

    for opener, brk, quote in itertools.product(_OPENERS, _BREAKS, _QUOTES):
        add(f"SELECT 1 {opener} {quote}{brk}PAYLOAD -- {quote}")  # a quote the guard might read as open
        add(f"SELECT 1 {opener}{brk}PAYLOAD")
        if opener.startswith("/*"):
            add(f"SELECT 1 {opener} {quote} */ PAYLOAD -- {quote}")
    for quote in _QUOTES:
        for inner in ("\\", "\\\\", quote * 2, "\\" + quote):
            add(f"SELECT {quote}{inner}{quote} PAYLOAD -- {quote}")
            add(f"SELECT {quote}{inner}{quote} PAYLOAD # {quote}")
    for comment in ("/*!", "/*!50000 ", "/*!100000 ", "/*M!", "/*M!100000 ", "/*m!", "/*!99999 "):
        add(f"SELECT 1 {comment}PAYLOAD */")
    for spelling in ("into outfile", "InTo\tOutFile", "INTO\nOUTFILE", "INTO/**/OUTFILE", "INTO#\nOUTFILE"):
        add(f"SELECT 1 {spelling} 'TARGET'")
        made[-1] = (made[-1][0], made[-1][1].replace("TARGET", f"{target}/{made[-1][0]}"))
    add("SELECT 1; SELECT 1 PAYLOAD")
    add("SELECT 1 PAYLOAD;")
    add("SELECT 1 UNION SELECT 2 PAYLOAD")
    add("(SELECT 1) PAYLOAD")
    add("SHOW TABLES; SELECT 1 PAYLOAD")
    return made


@pytest.fixture(scope="module")
def file_server() -> Iterator[tuple[MariaDB, Path]]:
    """A private server allowed to write files into one directory (secure_file_priv), so that a
    statement that slips past the guard would leave a file behind."""
    import shutil
    import tempfile

    from tests.mariadb import _server_binary_or_skip, _stop, start_server

    mariadbd = _server_binary_or_skip()
    base = Path(tempfile.mkdtemp(prefix="innolint-files-"))
    outfiles = base / "out"
    outfiles.mkdir()
    process, server = start_server(mariadbd, base, (f"--secure-file-priv={outfiles}",))
    try:
        server.sql("CREATE DATABASE evasion; CREATE TABLE evasion.t (id INT PRIMARY KEY, v INT);"
                   "INSERT INTO evasion.t VALUES (1, 1), (2, 2)")
        yield server, outfiles
    finally:
        _stop(process)
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.mariadb
@pytest.mark.parametrize("sql_mode", ["", "NO_BACKSLASH_ESCAPES", "ANSI_QUOTES", "ANSI"])
def test_generated_evasions_never_write_through_the_guard(file_server: tuple[MariaDB, Path], sql_mode: str) -> None:
    """Each evasion runs twice on a server that may write files: straight through the driver (to
    see which ones the server would run: the test's teeth) and through the guarded connection,
    with every privilege. Through the guard, no file is ever written and no row changes."""
    server, outfiles = file_server
    server.sql(f"SET GLOBAL sql_mode = '{sql_mode}'")  # new sessions take it
    try:
        raw = server.connect()
        guarded = connect(f"mysql://root@/?socket={server.socket}", password="")
        live, refused, reached = [], 0, 0
        for name, sql in _evasions(str(outfiles)):
            try:
                with raw.cursor() as cursor:
                    cursor.execute(sql)
            except pymysql.err.MySQLError:
                pass
            if (outfiles / name).exists():
                live.append(name)
                (outfiles / name).unlink()
            try:
                guarded.query(sql)
                reached += 1
            except WriteRefused:
                refused += 1
            except (AuditQueryError, AuditConnectionError):
                reached += 1
                if not guarded._raw.open:
                    guarded = connect(f"mysql://root@/?socket={server.socket}", password="")
            assert not (outfiles / name).exists(), f"written through the guard under sql_mode={sql_mode!r}: {sql!r}"
        guarded.close()
        raw.close()
    finally:
        server.sql("SET GLOBAL sql_mode = DEFAULT")
    assert server.sql("SELECT COUNT(*), SUM(v) FROM evasion.t") == [(2, 3)]
    assert list(outfiles.iterdir()) == []
    print(f"sql_mode={sql_mode!r}: {len(_evasions(str(outfiles)))} evasions, {len(live)} live on the server, "
          f"{refused} refused by the guard, {reached} reached the server through it")
    assert len(live) >= 40, f"only {len(live)} evasions were live on the server: the test lost its teeth"
    assert refused >= len(live)


@pytest.mark.mariadb
@pytest.mark.parametrize("autocommit", [1, 0])
def test_what_the_driver_sends_is_what_the_readme_names(mariadb: MariaDB, readonly_user: str,
                                                         monkeypatch: pytest.MonkeyPatch, autocommit: int) -> None:
    """The server's general log of one whole audit session (sampling included): besides the
    guarded SELECT and SHOW statements, PyMySQL sends `SET NAMES utf8mb4` and the READ ONLY
    init command at connect, `SET AUTOCOMMIT = 1` when the server's default is off, and quits
    at close; the audit's own first statements set the session's time limits; nothing else
    (docs/audit.md, "What it sends")."""
    import io as _io

    from linter.audit.server import AuditOptions, read_server

    monkeypatch.setenv("MYSQL_PWD", PASSWORD)
    mariadb.sql(f"SET GLOBAL log_output = 'TABLE'; TRUNCATE mysql.general_log; SET GLOBAL autocommit = {autocommit};"
                "SET GLOBAL general_log = ON")
    try:
        with connect(f"mysql://{readonly_user}@127.0.0.1:{mariadb.port}/?schemas=audit_app") as conn:
            thread = conn._raw.thread_id()
            read_server(conn, ["audit_app"], AuditOptions(sample=10), stderr=_io.StringIO())
        # the client's Quit is one packet it does not wait on: the server logs it when its thread
        # reads it, which may come after a log switched off at once (a log without the Quit, seen in
        # one run of the suite); the thread gone from the process list has logged it
        deadline = time.monotonic() + 10
        while mariadb.sql(f"SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = {thread}")[0][0] \
                and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        mariadb.sql("SET GLOBAL general_log = OFF; SET GLOBAL autocommit = 1")
    # no ORDER BY event_time: statements of one microsecond tie and come back in any order; the
    # log is a CSV table, read in the order it was written
    rows = mariadb.sql(f"SELECT command_type, CONVERT(argument USING utf8mb4) FROM mysql.general_log "
                       f"WHERE thread_id = {thread}")
    mariadb.sql("TRUNCATE mysql.general_log")
    commands = [(kind, text) for kind, text in rows]
    assert commands[0][0] == "Connect" and commands[-1] == ("Quit", "")
    queries = [text for kind, text in commands if kind == "Query"]
    assert [kind for kind, _ in commands[1:-1]] == ["Query"] * len(queries)
    prologue = ["SET NAMES utf8mb4", "SET SESSION TRANSACTION READ ONLY"] + (["SET AUTOCOMMIT = 1"] if not autocommit else [])
    assert queries[: len(prologue)] == prologue
    limits = ["SET SESSION lock_wait_timeout = 5", "SET SESSION max_statement_time = 30"]
    assert queries[len(prologue): len(prologue) + 2] == limits
    for text in queries[len(prologue) + 2:]:
        check_read_only(text, backslash_escapes=True)  # every other statement passed the guard
        assert text.split(None, 1)[0].upper() in ("SELECT", "SHOW"), text
    assert len(queries) > 10
