"""Secrets never leak: the GitHub token and the audit's database password appear in no output, log,
exception message, written file or SARIF, on any path, successful or failing.

Every test runs innolint with a recognisable secret and scans everything it produced for it, in
the forms a leak would take: as written, its distinctive core, base64 (HTTP basic auth) and
percent-encoded (URLs). The GitHub runs go through the real PyGithub client against the local
stand-in for the API (tests/fake_github.py), including one that echoes the Authorization header
back in its error; the audit runs go against unreachable servers always, and against the private
MariaDB server (tests/mariadb.py) when there is one.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import os
import secrets
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from linter.report import json as json_report
from linter.cli import main
from linter.rules.findings import Diagnostic, Finding, Report
from linter.github.check_runs import GitHubEnvironment, PublishOptions, run
from tests.fake_github import FakeGitHub

ROOT = Path(__file__).resolve().parents[1]
TOKEN_CORE = secrets.token_hex(16)
TOKEN = f"ghs_{TOKEN_CORE}"
PASSWORD_CORE = secrets.token_hex(12)
PASSWORD = f"Pw-{PASSWORD_CORE}'\"%;@:/#?"  # characters that URLs and SQL quoting transform
HEAD_SHA = "0123456789abcdef0123456789abcdef01234567"


def forms(secret: str, core: str) -> list[str]:
    """What a leak of `secret` would look like."""
    return [secret, core, base64.b64encode(secret.encode()).decode(), base64.b64encode(f"x-access-token:{secret}".encode()).decode(),
            quote(secret, safe=""), core[:12]]


def assert_clean(texts: dict[str, str], secret: str, core: str) -> None:
    for where, text in texts.items():
        for form in forms(secret, core):
            assert form not in text, f"the secret leaks in {where}"


def files_under(path: Path) -> dict[str, str]:
    return {str(p): p.read_text(encoding="utf-8", errors="replace") for p in path.rglob("*") if p.is_file()}


@pytest.fixture
def everything_logged(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.DEBUG)
    for name in ("github", "urllib3", "pymysql", "linter", "sqlglot"):
        caplog.set_level(logging.DEBUG, logger=name)
    return caplog


# --- the GitHub token ------------------------------------------------------------------------


class EchoingGitHub(FakeGitHub):
    """A server (or proxy) that quotes the request's Authorization header in its error."""

    def route(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        if method == "POST":
            header = self.requests[-1].headers.get("Authorization", "")
            return 401, {"message": f"Bad credentials: {header}", "documentation_url": "https://docs.github.com"}
        return super().route(method, path, body)


@pytest.fixture
def api() -> Iterator[FakeGitHub]:
    server = FakeGitHub().start()
    yield server
    server.stop()


def report_file(tmp_path: Path, n: int = 70) -> str:
    findings = [Finding(rule="no-primary-key", severity="error" if i % 2 else "warning", path=f"db/V{i}.sql", line=i + 1,
                        table=f"t{i}", message=f"t{i} has no primary key", fix=f"ALTER TABLE t{i} ADD PRIMARY KEY (id);")
                for i in range(n)]
    diagnostics = [Diagnostic(rule="parse-error", path="db/x.sql", line=2, message="not understood", excerpt="CREATE ...")]
    path = tmp_path / "report.json"
    path.write_text(json_report.render(Report(findings=findings, diagnostics=diagnostics)), encoding="utf-8")
    return str(path)


def github_environ(tmp_path: Path, api_url: str) -> dict[str, str]:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 42, "head": {"sha": HEAD_SHA}}}))
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    return {
        "GITHUB_TOKEN": TOKEN, "GITHUB_REPOSITORY": "acme/shop", "GITHUB_SHA": HEAD_SHA, "GITHUB_API_URL": api_url,
        "GITHUB_EVENT_PATH": str(event), "GITHUB_STEP_SUMMARY": str(out / "summary.md"),
        "GITHUB_OUTPUT": str(out / "output.txt"), "GITHUB_WORKSPACE": str(tmp_path),
    }


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


GITHUB_SCENARIOS = ["published", "create-refused", "update-refused", "comment-refused", "echoing-server",
                    "unreachable", "bad-url", "workflow-commands"]


@pytest.mark.parametrize("scenario", GITHUB_SCENARIOS)
def test_the_token_in_every_github_path(scenario: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str],
                                        everything_logged: pytest.LogCaptureFixture) -> None:
    server = (EchoingGitHub() if scenario == "echoing-server" else FakeGitHub()).start()
    if scenario == "echoing-server":  # PyGithub's own level (INFO); the test below raises it to DEBUG
        logging.getLogger("github").setLevel(logging.INFO)
    try:
        api_url = {"unreachable": f"http://127.0.0.1:{closed_port()}/api/v3", "bad-url": "http://[::1/api/v3"}.get(
            scenario, server.api_url)
        server.deny |= {"create-refused": {"create-check"}, "update-refused": {"update-check"},
                        "comment-refused": {"comment"}}.get(scenario, set())
        for name, value in github_environ(tmp_path, api_url).items():
            monkeypatch.setenv(name, value)
        annotations = "workflow-commands" if scenario == "workflow-commands" else "checks"
        code = main(["github", report_file(tmp_path), "--comment", "--annotations", annotations,
                     "--sarif-file", str(tmp_path / "out" / "r.sarif")])
        assert code == 1  # the findings decide, never the trouble with GitHub
        out, err = capsys.readouterr()
        sent = [json.dumps(r.body) for r in server.requests if r.body is not None]
        if scenario in ("published", "update-refused", "comment-refused", "echoing-server"):
            assert server.requests, "the API was not called"
        if scenario == "echoing-server":  # the refusal is reported, with the server's words, scrubbed
            assert "Bad credentials" in out and TOKEN not in out
    finally:
        server.stop()
    texts = {"stdout": out, "stderr": err, "log": everything_logged.text, **files_under(tmp_path / "out"),
             **{f"request body {i}": body for i, body in enumerate(sent)}}
    assert_clean(texts, TOKEN, TOKEN_CORE)
    assert json.loads(texts[str(tmp_path / "out" / "r.sarif")])["version"] == "2.1.0"


def test_pygithub_debug_log_of_a_server_that_echoes_the_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              everything_logged: pytest.LogCaptureFixture) -> None:
    server = EchoingGitHub().start()
    try:
        for name, value in github_environ(tmp_path, server.api_url).items():
            monkeypatch.setenv(name, value)
        main(["github", report_file(tmp_path), "--annotations", "checks"])
        assert any(r.method == "POST" for r in server.requests)
    finally:
        server.stop()
    assert_clean({"log": everything_logged.text}, TOKEN, TOKEN_CORE)


def test_the_token_through_a_real_process(api: FakeGitHub, tmp_path: Path) -> None:
    env = {**os.environ, **github_environ(tmp_path, api.api_url), "PYTHONPATH": str(ROOT)}
    api.deny.add("update-check")
    done = subprocess.run([sys.executable, "-m", "linter.cli", "github", report_file(tmp_path, 120), "--comment",
                           "--sarif-file", str(tmp_path / "out" / "r.sarif")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert_clean({"stdout": done.stdout, "stderr": done.stderr, **files_under(tmp_path / "out")}, TOKEN, TOKEN_CORE)


def test_exceptions_from_the_client_are_scrubbed(tmp_path: Path) -> None:
    """Whatever goes wrong making the client, its message is printed without the token."""

    def failing_factory(env: GitHubEnvironment) -> Any:
        raise ValueError(f"cannot use token {env.token} at {env.api_url}")

    env = GitHubEnvironment(repository="acme/shop", sha=HEAD_SHA, token=TOKEN, workspace=str(tmp_path))
    out, err = io.StringIO(), io.StringIO()
    run(Report(findings=[Finding(rule="r", severity="error", path="a.sql", line=1, message="m")]),
        PublishOptions(comment=True), env, client_factory=failing_factory, out=out, err=err)
    assert "cannot use the GitHub API" in err.getvalue()
    assert_clean({"stdout": out.getvalue(), "stderr": err.getvalue(), "repr": repr(env)}, TOKEN, TOKEN_CORE)


def test_check_never_prints_the_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`innolint check` runs beside the token in the action's environment: no format shows it."""
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("INPUT_GITHUB_TOKEN", TOKEN)
    sql = tmp_path / "a.sql"
    sql.write_text("CREATE TABLE t (a int);\nCREATE TABLE broken (;\n")
    texts = {}
    for fmt in ("text", "json", "sarif", "github"):
        main(["check", "--format", fmt, str(sql), str(tmp_path / "missing.sql")])
        texts[fmt] = "".join(capsys.readouterr())
    assert_clean(texts, TOKEN, TOKEN_CORE)


# --- the audit's password --------------------------------------------------------------------


def audit(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["audit", *args])
    return code, "".join(capsys.readouterr())


def test_the_password_in_every_failing_audit_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  everything_logged: pytest.LogCaptureFixture) -> None:
    port = closed_port()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MYSQL_PWD", raising=False)
    option_file = tmp_path / "client.cnf"
    option_file.write_text(f"[client]\npassword=\"{PASSWORD}\"\n")
    texts: dict[str, str] = {}
    # passwords where they must not be: in the DSN, as user info, port, parameter or fragment
    for n, dsn in enumerate((
        f"mysql://ro:{quote(PASSWORD, safe='')}@127.0.0.1:{port}/",
        f"mysql://ro:{PASSWORD_CORE}@127.0.0.1:{port}/app",
        f"mysql://ro@127.0.0.1:{PASSWORD_CORE}/",
        f"mysql://ro@127.0.0.1:{port}/?password={PASSWORD_CORE}",
        f"mysql://ro@127.0.0.1:{port}/#{PASSWORD_CORE}",
        f"postgres://ro:{PASSWORD_CORE}@127.0.0.1/",
    )):
        for fmt in ("json", "sarif"):
            code, texts[f"dsn {n} {fmt}"] = audit(["--dsn", dsn, "--format", fmt], capsys)
            assert code == 2
    # passwords where they belong, and a server that is not there
    monkeypatch.setenv("AUDIT_PW", PASSWORD)
    dsn = f"mysql://ro@127.0.0.1:{port}/?schemas=app"
    for name, args in (("--password-env", ["--password-env", "AUDIT_PW"]),
                       ("--defaults-file", ["--defaults-file", str(option_file)]),
                       ("socket", ["--password-env", "AUDIT_PW"])):
        target = f"mysql://ro@/?socket={tmp_path / 'no.sock'}" if name == "socket" else dsn
        code, texts[name] = audit(["--dsn", target, *args, "--format", "sarif"], capsys)
        assert code == 2 and "cannot connect" in texts[name]
    monkeypatch.setenv("MYSQL_PWD", PASSWORD)
    code, texts["MYSQL_PWD"] = audit(["--dsn", dsn, "--format", "json", "--output", str(tmp_path / "r.json")], capsys)
    assert code == 2 and "cannot connect" in texts["MYSQL_PWD"]
    texts["log"] = everything_logged.text
    texts.update({k: v for k, v in files_under(tmp_path).items() if not k.endswith("client.cnf")})
    assert_clean(texts, PASSWORD, PASSWORD_CORE)


def test_the_password_through_a_real_process(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MYSQL_PWD": PASSWORD}
    for dsn in (f"mysql://ro@127.0.0.1:{closed_port()}/", f"mysql://ro:{PASSWORD_CORE}@127.0.0.1/"):
        done = subprocess.run([sys.executable, "-m", "linter.cli", "audit", "--dsn", dsn, "--format", "sarif"],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert_clean({"stdout": done.stdout, "stderr": done.stderr}, PASSWORD, PASSWORD_CORE)


@pytest.fixture(scope="module")
def secret_user(mariadb: Any) -> Iterator[str]:
    escaped = PASSWORD.replace("\\", "\\\\").replace("'", "\\'")
    mariadb.sql(f"""
        CREATE DATABASE IF NOT EXISTS secret_app;
        CREATE OR REPLACE TABLE secret_app.t (a INT, note TEXT) ENGINE=InnoDB;
        INSERT INTO secret_app.t VALUES (1, 'x'), (2, 'y');
        CREATE OR REPLACE USER innolint_secret@'127.0.0.1' IDENTIFIED BY '{escaped}';
        GRANT SELECT, PROCESS ON *.* TO innolint_secret@'127.0.0.1';
    """)
    yield "innolint_secret"
    mariadb.sql("DROP USER IF EXISTS innolint_secret@'127.0.0.1'; DROP DATABASE IF EXISTS secret_app")


def test_the_password_in_every_audit_output(mariadb: Any, secret_user: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                            everything_logged: pytest.LogCaptureFixture) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MYSQL_PWD", raising=False)
    monkeypatch.setenv("AUDIT_PW", PASSWORD)
    option_file = tmp_path / "client.cnf"
    option_file.write_text(f"[client]\npassword=\"{PASSWORD}\"\n")
    out = tmp_path / "out"
    out.mkdir()
    dsn = f"mysql://{secret_user}@127.0.0.1:{mariadb.port}/?schemas=secret_app"
    texts: dict[str, str] = {}
    for fmt, how in (("text", ["--password-env", "AUDIT_PW"]), ("json", ["--defaults-file", str(option_file)]),
                     ("sarif", ["--password-env", "AUDIT_PW"]), ("github", ["--password-env", "AUDIT_PW"])):
        code, texts[fmt] = audit(["--dsn", dsn, *how, "--format", fmt, "--sample", "10",
                                  "--output", str(out / f"report.{fmt}"), "--export-stats", str(out / f"stats.{fmt}")],
                                 capsys)
        assert code == 1, texts[fmt]  # t has no primary key: the audit read it
    assert "no-primary-key" in (out / "report.json").read_text()
    # a wrong password: refused, and neither password shown
    monkeypatch.setenv("AUDIT_PW", PASSWORD + "-wrong")
    code, texts["wrong"] = audit(["--dsn", dsn, "--password-env", "AUDIT_PW", "--format", "json"], capsys)
    assert code == 2 and "Access denied" in texts["wrong"]
    texts["log"] = everything_logged.text
    texts.update(files_under(out))
    assert_clean(texts, PASSWORD, PASSWORD_CORE)
