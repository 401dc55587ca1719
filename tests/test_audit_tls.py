"""TLS for `innolint audit` against a real MariaDB started with a CA and a server certificate made
in the test (issue 36): each ssl-mode does what the mysql client's does, the options come from
the DSN, the flags and a defaults file, and when the mode requires TLS that is missing or not
verified, the password is never sent.

How "never sent" is shown, three ways: a relay between the client and the server records every
byte the client sends (no handshake response: at most the 32-byte SSL request, then TLS, or
nothing at all); the server's general log has no login of the user (a correct password would have
logged in); and its Access_denied_errors does not move for a wrong password (a sent one counts).
A control for each: the same relay sees the user name in plain text under DISABLED, the log
shows a verified login, the counter moves for a wrong password sent in plain text.
"""

from __future__ import annotations

import io
import re
import socket
import struct
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from linter.audit.connection import AuditConnectionError, Dsn, TlsRefused, connect
from linter.audit.server import AuditOptions, read_server
from linter.audit.tls import TlsError, TlsMode, TlsOptions
from linter.cli import main
from tests.mariadb import MariaDB, private_server
from tests.tls_certs import Certificates, make_certificates

pytestmark = pytest.mark.mariadb

SCHEMA = "tls_app"
USER, PASSWORD = "tls_auditor", "Tls-pw-7c1e"
X509_USER = "cert_auditor"
CLIENT_SSL = 0x800  # CLIENT_SSL in the handshake packets' capability flags


@dataclass(frozen=True)
class TlsServer:
    server: MariaDB
    certs: Certificates

    def dsn(self, host: str = "127.0.0.1", user: str = USER, query: str = "") -> str:
        return f"mysql://{user}@{host}:{self.server.port}/?schemas={SCHEMA}{query}"


def _users(server: MariaDB) -> None:
    server.sql(f"""
        CREATE DATABASE {SCHEMA};
        CREATE TABLE {SCHEMA}.t (id CHAR(36) NOT NULL PRIMARY KEY, doc JSON) ENGINE=InnoDB;
        INSERT INTO {SCHEMA}.t VALUES (UUID(), '{{"a": 1}}'), (UUID(), NULL);
        CREATE USER {USER}@'%' IDENTIFIED BY '{PASSWORD}';
        GRANT SELECT ON {SCHEMA}.* TO {USER}@'%';
        CREATE USER {X509_USER}@'%' IDENTIFIED BY '{PASSWORD}' REQUIRE SUBJECT '/CN=innolint-auditor';
        GRANT SELECT ON {SCHEMA}.* TO {X509_USER}@'%';
    """)


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TlsServer]:
    """A private server with TLS: its certificate names `localhost` only (not 127.0.0.1)."""
    certs = make_certificates(tmp_path_factory.mktemp("certs"), ("localhost",))
    with private_server(f"--ssl-ca={certs.ca}", f"--ssl-cert={certs.server_cert}", f"--ssl-key={certs.server_key}",
                        prefix="innolint-tls-") as server:
        _users(server)
        assert server.sql("SELECT @@have_ssl") == [("YES",)]
        yield TlsServer(server, certs)


@pytest.fixture(scope="module")
def plain(mariadb: MariaDB) -> Iterator[MariaDB]:
    """The shared server, which has no TLS, with the same user."""
    assert mariadb.sql("SELECT @@have_ssl") != [("YES",)]
    _users(mariadb)
    yield mariadb
    mariadb.sql(f"DROP DATABASE IF EXISTS {SCHEMA}; DROP USER IF EXISTS {USER}@'%', {X509_USER}@'%'")


def _cipher(connection: Any) -> str:
    """The cipher as the server sees this session (empty: no TLS)."""
    return str(dict(connection.query("SHOW SESSION STATUS LIKE 'Ssl_cipher'")).get("Ssl_cipher", ""))


# --- a relay that records what the client sends ---------------------------------------------------


class Relay:
    """127.0.0.1:port forwarding to a server's port, keeping every byte each client sent."""

    def __init__(self, upstream: int) -> None:
        self._upstream = upstream
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self.sent: list[bytearray] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            record = bytearray()
            self.sent.append(record)
            server = socket.create_connection(("127.0.0.1", self._upstream))
            threading.Thread(target=self._pump, args=(client, server, record), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, None), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket, record: bytearray | None) -> None:
        try:
            while data := source.recv(65536):
                if record is not None:
                    record.extend(data)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self._listener.close()


def _first_packet(data: bytes) -> tuple[int, int] | None:
    """(payload length, capability flags) of the first packet the client sent; None when it
    sent nothing. An SSL request is 32 bytes; a handshake response is longer (user name, scramble)."""
    if not data:
        return None
    length = int.from_bytes(data[:3], "little")
    (flags,) = struct.unpack("<I", data[4:8])
    return length, flags


@pytest.fixture
def relay(tls: TlsServer) -> Iterator[Relay]:
    proxy = Relay(tls.server.port)
    yield proxy
    proxy.close()


def _counter(server: MariaDB, name: str) -> int:
    return int(server.sql(f"SHOW GLOBAL STATUS LIKE '{name}'")[0][1])


class _Logins:
    """The users that logged in (or were refused) while the block ran, from the general log."""

    def __init__(self, server: MariaDB) -> None:
        self.server = server
        self.lines: list[str] = []

    def __enter__(self) -> _Logins:
        self.server.sql("SET GLOBAL log_output = 'TABLE'; TRUNCATE mysql.general_log; SET GLOBAL general_log = ON")
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.server.sql("SET GLOBAL general_log = OFF")
        self.lines = [str(text) for (text,) in self.server.sql(
            "SELECT CONVERT(argument USING utf8mb4) FROM mysql.general_log WHERE command_type = 'Connect'")]
        self.server.sql("TRUNCATE mysql.general_log")

    def of(self, user: str) -> list[str]:
        return [line for line in self.lines if user in line]


# --- what each mode does --------------------------------------------------------------------------


def test_disabled_gives_no_tls(tls: TlsServer) -> None:
    with connect(tls.dsn(), PASSWORD, ssl_mode="DISABLED") as connection:
        assert connection.tls is None and _cipher(connection) == ""


def test_preferred_is_the_default_over_tcp_and_checks_nothing(tls: TlsServer) -> None:
    """PREFERRED encrypts when it can and checks no certificate (this one's CA is unknown to it)."""
    with connect(tls.dsn(), PASSWORD) as connection:
        assert connection.tls is not None and connection.tls.startswith("TLSv1.")
        assert _cipher(connection) == connection.tls.split()[1]


def test_preferred_falls_back_to_plain_text_where_there_is_no_tls(plain: MariaDB) -> None:
    with connect(f"mysql://{USER}@127.0.0.1:{plain.port}/", PASSWORD, ssl_mode="PREFERRED") as connection:
        assert connection.tls is None and _cipher(connection) == ""


def test_required_encrypts_without_checking_the_certificate(tls: TlsServer) -> None:
    with connect(tls.dsn(), PASSWORD, ssl_mode="REQUIRED") as connection:
        assert connection.tls is not None and _cipher(connection)


def test_verify_ca_and_verify_identity_with_the_right_ca(tls: TlsServer) -> None:
    with connect(tls.dsn(), PASSWORD, ssl_mode="VERIFY_CA", ssl_ca=str(tls.certs.ca)) as connection:
        assert _cipher(connection)
    with connect(tls.dsn("localhost"), PASSWORD, ssl_mode="VERIFY_IDENTITY", ssl_ca=str(tls.certs.ca)) as connection:
        assert _cipher(connection)  # the certificate names localhost


@pytest.mark.parametrize(("mode", "host", "ca", "says"), [
    ("VERIFY_CA", "127.0.0.1", "other", "failed ssl-mode VERIFY_CA"),
    ("VERIFY_CA", "127.0.0.1", None, "failed ssl-mode VERIFY_CA (the system CAs)"),
    (None, "127.0.0.1", "other", "failed ssl-mode VERIFY_CA"),  # ssl-ca alone means VERIFY_CA
    ("VERIFY_IDENTITY", "127.0.0.1", "right", "IP address mismatch"),  # the certificate names localhost only
    ("VERIFY_IDENTITY", "localhost", "other", "failed ssl-mode VERIFY_IDENTITY"),
])
def test_a_failed_verification_sends_no_password(tls: TlsServer, relay: Relay, mode: str | None, host: str,
                                                 ca: str | None, says: str) -> None:
    ca_file = {"other": str(tls.certs.other_ca), "right": str(tls.certs.ca), None: None}[ca]
    denied = _counter(tls.server, "Access_denied_errors")
    with _Logins(tls.server) as logins:
        for password in (PASSWORD, PASSWORD + "-wrong"):
            with pytest.raises(TlsRefused, match=re.escape(says)) as refused:
                connect(f"mysql://{USER}@{host}:{relay.port}/", password, ssl_mode=mode, ssl_ca=ca_file)
            assert "not logged in (no user name or password was sent)" in str(refused.value)
            assert PASSWORD not in str(refused.value)
    assert logins.of(USER) == []  # the right password would have logged in: it was not sent
    assert _counter(tls.server, "Access_denied_errors") == denied  # nor was the wrong one
    for sent in relay.sent:  # on the wire: the SSL request, then TLS; no handshake response
        length, flags = _first_packet(bytes(sent)) or (0, 0)
        assert length == 32 and flags & CLIENT_SSL
        assert USER.encode() not in sent and PASSWORD.encode() not in sent


def test_the_evidence_has_teeth(tls: TlsServer, relay: Relay) -> None:
    """What the test above would see had the credentials been sent: in plain text the user name
    is on the wire and a wrong password counts; a verified login is in the general log."""
    denied = _counter(tls.server, "Access_denied_errors")
    with _Logins(tls.server) as logins:
        with pytest.raises(AuditConnectionError, match="Access denied"):
            connect(f"mysql://{USER}@127.0.0.1:{relay.port}/", PASSWORD + "-wrong", ssl_mode="DISABLED")
        with connect(f"mysql://{USER}@localhost:{relay.port}/", PASSWORD, ssl_mode="VERIFY_IDENTITY",
                     ssl_ca=str(tls.certs.ca)):
            pass
    assert _counter(tls.server, "Access_denied_errors") == denied + 1
    assert any(line.startswith(f"{USER}@") for line in logins.of(USER))
    plain_text, encrypted = bytes(relay.sent[0]), bytes(relay.sent[1])
    assert USER.encode() in plain_text and (_first_packet(plain_text) or (0, 0))[0] > 32
    assert USER.encode() not in encrypted  # the same login under TLS: not readable on the wire


@pytest.mark.parametrize("mode", ["REQUIRED", "VERIFY_CA", "VERIFY_IDENTITY"])
def test_a_required_mode_fails_against_a_server_without_tls_and_sends_nothing(plain: MariaDB, mode: str) -> None:
    proxy = Relay(plain.port)
    denied = _counter(plain, "Access_denied_errors")
    try:
        with _Logins(plain) as logins:
            with pytest.raises(TlsRefused, match=f"ssl-mode {mode} and the server does not offer TLS"):
                connect(f"mysql://{USER}@127.0.0.1:{proxy.port}/", PASSWORD, ssl_mode=mode)
    finally:
        proxy.close()
    assert [bytes(sent) for sent in proxy.sent] == [b""]  # not a byte: the greeting said no TLS
    assert logins.of(USER) == [] and _counter(plain, "Access_denied_errors") == denied


def test_required_over_a_socket_without_tls(plain: MariaDB) -> None:
    with pytest.raises(TlsRefused, match="does not offer TLS"):
        connect(f"mysql://root@/?socket={plain.socket}&ssl-mode=REQUIRED")
    with connect(f"mysql://root@/?socket={plain.socket}") as connection:  # a socket: DISABLED by default
        assert connection.tls is None


def test_a_client_certificate_is_presented(tls: TlsServer) -> None:
    with pytest.raises(AuditConnectionError, match="Access denied"):
        connect(tls.dsn(user=X509_USER), PASSWORD, ssl_mode="REQUIRED")  # the user requires a certificate
    with connect(tls.dsn(user=X509_USER), PASSWORD, ssl_mode="VERIFY_CA", ssl_ca=str(tls.certs.ca),
                 ssl_cert=str(tls.certs.client_cert), ssl_key=str(tls.certs.client_key)) as connection:
        assert connection.query("SELECT CURRENT_USER()") == [(f"{X509_USER}@%",)]


# --- where the options come from --------------------------------------------------------------------


def test_options_from_the_dsn(tls: TlsServer) -> None:
    dsn = tls.dsn("localhost", query=f"&ssl-mode=verify_identity&ssl_ca={tls.certs.ca}")
    assert Dsn.parse(dsn).ssl_mode == "verify_identity" and Dsn.parse(dsn).ssl_ca == str(tls.certs.ca)
    with connect(dsn, PASSWORD) as connection:
        assert _cipher(connection)
    with pytest.raises(TlsRefused, match="mismatch"):  # the same DSN for 127.0.0.1: not the certificate's name
        connect(tls.dsn(query=f"&ssl-mode=VERIFY_IDENTITY&ssl-ca={tls.certs.ca}"), PASSWORD)


def test_flags_override_the_dsn_and_the_dsn_the_defaults_file(tls: TlsServer, tmp_path: Path) -> None:
    option_file = tmp_path / "my.cnf"
    option_file.write_text(f"[client]\npassword={PASSWORD}\nloose_ssl_mode=VERIFY_IDENTITY\nssl-ca={tls.certs.ca}\n")
    with pytest.raises(TlsRefused, match="mismatch"):  # the file's mode, for 127.0.0.1
        connect(tls.dsn(), None, str(option_file))
    with connect(tls.dsn(query="&ssl-mode=VERIFY_CA"), None, str(option_file)) as connection:  # the DSN's
        assert _cipher(connection)
    with connect(tls.dsn(query="&ssl-mode=VERIFY_IDENTITY"), None, str(option_file),
                 ssl_mode="DISABLED") as connection:  # the flag's
        assert _cipher(connection) == ""


def test_mariadb_option_file_booleans(tls: TlsServer, plain: MariaDB, tmp_path: Path) -> None:
    verify = tmp_path / "verify.cnf"
    verify.write_text(f"[client-mariadb]\nssl-verify-server-cert\nssl-ca = \"{tls.certs.ca}\"\n")
    with pytest.raises(TlsRefused, match="VERIFY_IDENTITY"):  # MariaDB's flag checks the host name too
        connect(tls.dsn(), PASSWORD, str(verify))
    with connect(tls.dsn("localhost"), PASSWORD, str(verify)) as connection:
        assert _cipher(connection)
    wants = tmp_path / "ssl.cnf"
    wants.write_text("[client]\nskip-ssl\nssl\n")  # the last one wins: TLS required
    with pytest.raises(TlsRefused, match="REQUIRED"):
        connect(f"mysql://{USER}@127.0.0.1:{plain.port}/", PASSWORD, str(wants))
    wants.write_text("[client]\nssl\nskip-ssl\nssl-crl=/etc/mysql/crl.pem\n")
    with connect(tls.dsn(), PASSWORD, str(wants)) as connection:
        assert connection.tls is None
        assert connection.notes == ["not supported, ignored from the defaults file: ssl-crl"]


def test_resolving_the_options() -> None:
    assert TlsOptions.resolve(None).mode is TlsMode.PREFERRED
    assert TlsOptions.resolve(None, socket=True).mode is TlsMode.DISABLED
    assert TlsOptions.resolve(None, "ca.pem").mode is TlsMode.VERIFY_CA
    assert TlsOptions.resolve("required", "ca.pem").note is not None  # REQUIRED does not use the CA: said
    assert TlsOptions.resolve(None, mariadb_ssl=True).mode is TlsMode.REQUIRED
    with pytest.raises(TlsError, match="unknown ssl-mode"):
        TlsOptions.resolve("VERIFY_FULL")
    with pytest.raises(TlsError, match="ssl-key needs ssl-cert"):
        TlsOptions.resolve("REQUIRED", key="k.pem")
    with pytest.raises(TlsError, match="cannot read ssl-ca"):
        TlsOptions.resolve("VERIFY_CA", "/nonexistent/ca.pem").context()


# --- the command line ---------------------------------------------------------------------------------


def test_cli_refuses_an_unverified_server_and_audits_a_verified_one(
        tls: TlsServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TLS_PW", PASSWORD)
    flags = ["--password-env", "TLS_PW", "--ssl-mode", "verify_identity", "--ssl-ca", str(tls.certs.ca)]
    assert main(["audit", "--dsn", tls.dsn(), *flags]) == 2
    err = capsys.readouterr().err
    assert "IP address mismatch" in err and "no user name or password was sent" in err and PASSWORD not in err
    code = main(["audit", "--dsn", tls.dsn("localhost"), *flags, "--format", "json"])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    assert '"tables": 1' in out


def test_an_audit_over_verified_tls(tls: TlsServer) -> None:
    with connect(tls.dsn("localhost"), PASSWORD, ssl_mode="VERIFY_IDENTITY", ssl_ca=str(tls.certs.ca)) as connection:
        audit = read_server(connection, [SCHEMA], AuditOptions(sample=10), stderr=io.StringIO())
        assert _cipher(connection)
    assert [t.name for t in audit.model.tables()] == ["t"]
