"""A stand-in for the GitHub REST API on 127.0.0.1, for the real PyGithub client to talk to.

It serves the few endpoints innolint uses (get a repository, create and update a check run, get
an issue, list, create and edit its comments, who the token is) under a GitHub Enterprise-style
prefix `/api/v3`, so the configurable base URL is exercised too, and records every request
(method, path, headers, JSON body) for the tests to assert on. `deny` makes chosen routes answer
403 the way GitHub does for a read-only token: `{"message": "Resource not accessible by
integration"}`.

Identity, as GitHub models it: `identity` None stands for an installation token (the Actions
`GITHUB_TOKEN`, a GitHub App's), for which `GET /user` answers 403 and whose comments are written
by `github-actions[bot]` (type Bot); a login stands for a user's token, which `GET /user` names.
Every comment carries its author (`user.login`, `user.type`); `add_comment` seeds comments by
others, as anyone who can comment on a pull request can write one holding innolint's marker.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PREFIX = "/api/v3"


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class FakeGitHub:
    """The server's state: what was asked, what exists, what is refused."""

    requests: list[Recorded] = field(default_factory=list)
    comments: dict[int, dict[str, Any]] = field(default_factory=dict)
    deny: set[str] = field(default_factory=set)  # route names: "create-check", "update-check", "comment"
    #: the token's user (None: an installation token, writing as github-actions[bot])
    identity: str | None = None
    base: str = ""
    _server: ThreadingHTTPServer | None = None

    @property
    def api_url(self) -> str:
        return self.base + PREFIX

    def writes(self) -> list[Recorded]:
        return [r for r in self.requests if r.method != "GET"]

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

            def _body(self) -> Any:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                return json.loads(raw) if raw else None

            def _send(self, status: int, payload: Any) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _handle(self) -> None:
                body = self._body()
                path = self.path.split("?", 1)[0]
                state.requests.append(Recorded(self.command, path, dict(self.headers.items()), body))
                status, payload = state.route(self.command, path, body)
                self._send(status, payload)

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
    def route(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        denied = (403, {"message": "Resource not accessible by integration",
                        "documentation_url": "https://docs.github.com/rest/checks/runs#create-a-check-run"})
        api = self.api_url
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
            return 201, self._check_run(m.group(1), m.group(2), body)
        if m := re.fullmatch(r"/repos/([^/]+)/([^/]+)/check-runs/(\d+)", rest):
            if "update-check" in self.deny:
                return denied
            return 200, self._check_run(m.group(1), m.group(2), body)
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

    def _check_run(self, owner: str, name: str, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": 7,
            "name": body.get("name", "innolint"),
            "head_sha": body.get("head_sha", ""),
            "status": body.get("status", "in_progress"),
            "conclusion": body.get("conclusion"),
            "url": f"{self.api_url}/repos/{owner}/{name}/check-runs/7",
            "html_url": f"https://github.example/{owner}/{name}/runs/7",
        }
