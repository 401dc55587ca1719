"""A stand-in for the GitHub REST API on 127.0.0.1, for the real PyGithub client to talk to.

It serves the endpoints innolint uses (get a repository, create, get, update and list check runs,
get an issue, list, create and edit its comments, who the token is) under a GitHub Enterprise-style
prefix `/api/v3`, so the configurable base URL is exercised too, and records every request
(method, path, headers, JSON body, size) for the tests to assert on. Check runs keep their state as
GitHub does: annotations are appended (`output.annotations_count`), the summary is replaced, and a
run has a status and a conclusion (`runs`).

Misbehaving, as GitHub does:
- `deny` makes chosen routes answer 403 the way GitHub does for a read-only token (pull requests
  from forks): `{"message": "Resource not accessible by integration"}`.
- `fault(route, ...)` queues answers for the next requests to a route: a status with a message and
  headers (a secondary rate limit: 403 "You have exceeded a secondary rate limit" with
  `retry-after`, or with `x-ratelimit-remaining: 0` and `x-ratelimit-reset`; 429; 502), or a
  dropped connection (the socket closed with no answer), before or after the request took effect.
- Content-creating requests (POST, PATCH, PUT, DELETE) are counted against GitHub's documented
  secondary limits, 80 a minute and 500 an hour, on the clock the test gives (`clock`): one over
  is answered 403 "You have exceeded a secondary rate limit" with `retry-after: 60`, so a client
  that does not pace itself fails the test.

Identity, as GitHub models it: `identity` None stands for an installation token (the Actions
`GITHUB_TOKEN`, a GitHub App's), for which `GET /user` answers 403 and whose comments are written
by `github-actions[bot]` (type Bot); a login stands for a user's token, which `GET /user` names.
Every comment carries its author (`user.login`, `user.type`); `add_comment` seeds comments by
others, as anyone who can comment on a pull request can write one holding innolint's marker.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PREFIX = "/api/v3"
CONTENT_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})
SECONDARY = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    size: int = 0
    #: what the server did: an HTTP status, or "dropped"
    answer: str = ""


@dataclass
class Fault:
    """One planned misbehaviour: an answer (`status`, `message`, `headers`) or a dropped
    connection (`drop`: "before" the request takes effect, or "after" it did)."""

    status: int = 0
    message: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    drop: str | None = None


@dataclass
class FakeGitHub:
    """The server's state: what was asked, what exists, what is refused."""

    requests: list[Recorded] = field(default_factory=list)
    comments: dict[int, dict[str, Any]] = field(default_factory=dict)
    runs: dict[int, dict[str, Any]] = field(default_factory=dict)
    deny: set[str] = field(default_factory=set)  # route names: "create-check", "update-check", "comment"
    #: the token's user (None: an installation token, writing as github-actions[bot])
    identity: str | None = None
    #: seconds, for the secondary-limit window (the test's fake clock, or the real one)
    clock: Callable[[], float] = time.monotonic
    per_minute: int = 80
    per_hour: int = 500
    base: str = ""
    faults: dict[str, list[Fault]] = field(default_factory=dict)
    _content_times: list[float] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def api_url(self) -> str:
        return self.base + PREFIX

    def writes(self) -> list[Recorded]:
        """Content-creating requests that reached the API and were answered."""
        return [r for r in self.requests if r.method != "GET" and r.answer != "dropped"]

    def fault(self, route: str, *faults: Fault) -> None:
        """Queue misbehaviours for the next requests to `route` (see `route_name`)."""
        self.faults.setdefault(route, []).extend(faults)

    @property
    def author(self) -> dict[str, Any]:
        """The `user` of what this token writes."""
        if self.identity is None:
            return {"login": "github-actions[bot]", "id": 41898282, "type": "Bot"}
        return {"login": self.identity, "id": 1000 + len(self.identity), "type": "User"}

    def add_comment(self, body: str, login: str, kind: str = "User") -> int:
        """A comment written by someone else (`login`); returns its id."""
        comment_id = 500 + len(self.comments)
        self.comments[comment_id] = {
            "id": comment_id, "body": body, "user": {"login": login, "id": 2000 + comment_id, "type": kind},
            "url": f"{self.api_url}/repos/o/r/issues/comments/{comment_id}",
            "html_url": f"https://github.example/o/r/pull/1#issuecomment-{comment_id}",
        }
        return comment_id

    def start(self) -> FakeGitHub:
        state = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - keep the test output quiet
                pass

            def _send(self, status: int, payload: Any, headers: dict[str, str]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def _drop(self) -> None:
                """Close the connection with no answer at all, as a reset network does."""
                self.close_connection = True
                try:
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                body = json.loads(raw) if raw else None
                path, _, query = self.path.partition("?")
                record = Recorded(self.command, path, dict(self.headers.items()), body, len(raw))
                with state._lock:
                    state.requests.append(record)
                    outcome = state.answer(self.command, path, query, body)
                if outcome is None:
                    record.answer = "dropped"
                    self._drop()
                    return
                status, payload, headers = outcome
                record.answer = str(status)
                self._send(status, payload, headers)

            do_GET = do_POST = do_PATCH = _handle

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        host, port = self._server.server_address[:2]
        self.base = f"http://{host}:{port}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    # -- the API -------------------------------------------------------------------------------
    @staticmethod
    def route_name(method: str, rest: str) -> str:
        """create-check, update-check, get-check, list-checks, comment (POST), edit-comment, other."""
        if re.fullmatch(r"/repos/[^/]+/[^/]+/check-runs", rest):
            return "create-check"
        if re.fullmatch(r"/repos/[^/]+/[^/]+/check-runs/\d+", rest):
            return "update-check" if method == "PATCH" else "get-check"
        if re.fullmatch(r"/repos/[^/]+/[^/]+/commits/[^/]+/check-runs", rest):
            return "list-checks"
        if re.fullmatch(r"/repos/[^/]+/[^/]+/issues/\d+/comments", rest):
            return "comment" if method == "POST" else "list-comments"
        if re.fullmatch(r"/repos/[^/]+/[^/]+/issues/comments/\d+", rest):
            return "edit-comment"
        return "other"

    def answer(self, method: str, path: str, query: str, body: Any) -> tuple[int, Any, dict[str, str]] | None:
        """What the server answers (status, JSON, headers), or None to drop the connection."""
        rest = path[len(PREFIX):] if path.startswith(PREFIX) else path
        queued = self.faults.get(self.route_name(method, rest))
        fault = queued.pop(0) if queued else None
        if fault is not None and fault.drop == "before":
            return None
        if fault is not None and fault.status:
            return fault.status, {"message": fault.message, "documentation_url": "https://docs.github.com/rest"}, fault.headers
        if method in CONTENT_METHODS:
            now = self.clock()
            minute = sum(1 for t in self._content_times if now - t < 60)
            hour = sum(1 for t in self._content_times if now - t < 3600)
            if minute >= self.per_minute or hour >= self.per_hour:
                return 403, {"message": SECONDARY}, {"retry-after": "60"}
            self._content_times.append(now)
        status, payload = self.route(method, path + ("?" + query if query else ""), body)
        if fault is not None and fault.drop == "after":
            return None  # done, but the answer never arrives
        return status, payload, {}

    def route(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        """The answer of the API itself (`path` may end in `?query`)."""
        denied = (403, {"message": "Resource not accessible by integration",
                        "documentation_url": "https://docs.github.com/rest/checks/runs#create-a-check-run"})
        api = self.api_url
        path, _, query = path.partition("?")
        if not path.startswith(PREFIX):
            return 404, {"message": "Not Found"}
        rest = path[len(PREFIX):]
        if rest == "/user":
            if self.identity is None:  # what GitHub answers an installation token
                return 403, {"message": "Resource not accessible by integration",
                             "documentation_url": "https://docs.github.com/rest/users/users#get-the-authenticated-user"}
            return 200, {**self.author, "url": f"{api}/users/{self.identity}"}
        if m := re.fullmatch(r"/repos/([^/]+)/([^/]+)", rest):
            owner, name = m.groups()
            return 200, {"id": 1, "name": name, "full_name": f"{owner}/{name}", "url": f"{api}/repos/{owner}/{name}"}
        if m := re.fullmatch(r"/repos/([^/]+)/([^/]+)/check-runs", rest):
            if "create-check" in self.deny:
                return denied
            return 201, self._create_run(m.group(1), m.group(2), body)
        if m := re.fullmatch(r"/repos/([^/]+)/([^/]+)/check-runs/(\d+)", rest):
            run = self.runs.get(int(m.group(3)))
            if run is None:
                return 404, {"message": "Not Found"}
            if method == "GET":
                return 200, run
            if "update-check" in self.deny:
                return denied
            return 200, self._update_run(run, body)
        if m := re.fullmatch(r"/repos/([^/]+)/([^/]+)/commits/([^/]+)/check-runs", rest):
            name = dict(p.split("=", 1) for p in query.split("&") if "=" in p).get("check_name")
            found = [r for r in self.runs.values() if r["head_sha"] == m.group(3) and (name is None or r["name"] == name)]
            return 200, {"total_count": len(found), "check_runs": found}
        if m := re.fullmatch(r"/repos/([^/]+)/([^/]+)/issues/(\d+)", rest):
            owner, name, number = m.groups()
            return 200, {"id": 100, "number": int(number), "url": f"{api}/repos/{owner}/{name}/issues/{number}",
                         "html_url": f"https://github.example/{owner}/{name}/pull/{number}"}
        if m := re.fullmatch(r"/repos/([^/]+)/([^/]+)/issues/(\d+)/comments", rest):
            owner, name, _number = m.groups()
            if method == "GET":
                return 200, list(self.comments.values())
            if "comment" in self.deny:
                return denied
            comment_id = 500 + len(self.comments)
            comment = {"id": comment_id, "body": body["body"], "user": dict(self.author),
                       "url": f"{api}/repos/{owner}/{name}/issues/comments/{comment_id}",
                       "html_url": f"https://github.example/{owner}/{name}/pull/1#issuecomment-{comment_id}"}
            self.comments[comment_id] = comment
            return 201, comment
        if m := re.fullmatch(r"/repos/([^/]+)/([^/]+)/issues/comments/(\d+)", rest):
            comment = self.comments[int(m.group(3))]
            comment["body"] = body["body"]
            return 200, comment
        return 404, {"message": "Not Found"}

    def _create_run(self, owner: str, name: str, body: dict[str, Any]) -> dict[str, Any]:
        run_id = 7 + len(self.runs)
        run: dict[str, Any] = {
            "id": run_id,
            "name": body.get("name", "innolint"),
            "head_sha": body.get("head_sha", ""),
            "external_id": body.get("external_id", ""),
            "status": body.get("status", "queued"),
            "conclusion": body.get("conclusion"),
            "output": {"title": None, "summary": None, "annotations_count": 0},
            "url": f"{self.api_url}/repos/{owner}/{name}/check-runs/{run_id}",
            "html_url": f"https://github.example/{owner}/{name}/runs/{run_id}",
            "annotations": [],
        }
        self.runs[run_id] = run
        return self._update_run(run, {k: v for k, v in body.items() if k in ("output",)})

    @staticmethod
    def _update_run(run: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        for key in ("status", "conclusion", "name", "external_id"):
            if key in body:
                run[key] = body[key]
        output = body.get("output")
        if output:
            for key in ("title", "summary", "text"):
                if key in output:
                    run["output"][key] = output[key]
            run["annotations"].extend(output.get("annotations") or [])
            run["output"]["annotations_count"] = len(run["annotations"])
        return run
