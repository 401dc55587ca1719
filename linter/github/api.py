"""Requests to GitHub that a required check can rely on: retried, paced, bounded, and explained.

A pull-request check must never hang a PR or fail without saying why. GitHub answers a busy or
over-eager client with a secondary rate limit (403 or 429, with `retry-after`, or with
`x-ratelimit-remaining: 0` and `x-ratelimit-reset`), with 5xx while it has trouble, and networks
drop connections. What GitHub documents (docs.github.com/en/rest/using-the-rest-api/
rate-limits-for-the-rest-api, "About secondary rate limits" and "Handle rate limit errors
appropriately"):

- no more than 80 content-generating requests a minute and 500 an hour (shared by everything the
  token's installation does, so one run must not spend them);
- after a rate-limit answer: wait `retry-after` seconds when given; else, when
  `x-ratelimit-remaining` is 0, until `x-ratelimit-reset` (epoch seconds); else at least a
  minute, and exponentially longer while it keeps failing.

`Calls.call` runs one PyGithub call (one request) with that policy, PyGithub's own retrying
switched off (it sleeps for real, up to an hour, inside the job): 5xx and dropped connections
are retried with exponential backoff, rate limits as documented above, everything within one
bounded budget of waiting per run (`Policy.max_wait`), plus a reserve for the request that
concludes a check run. A request that creates or appends something and whose answer was lost
(a dropped connection, a 502 from a proxy) may have been applied: the caller passes `settled`,
which asks GitHub whether it was, so nothing is created or annotated twice. A refusal that
waiting cannot mend (403 "Resource not accessible by integration": a read-only token, as pull
requests from forks get; 404; 422) is not retried. Every failure becomes an `ApiFailure` whose
`reason` names the real cause for people.

The clock, the wall clock and sleep are injected (`Policy`): the tests run hours of GitHub's
waiting in no time. Every request is logged with its payload size (`Calls.log`), so a run can say
how many requests it made and how much it sent.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

#: GitHub's documented ceilings on content-generating requests
CONTENT_PER_MINUTE = 80
CONTENT_PER_HOUR = 500
#: methods that create or change content (the ones the ceilings count)
CONTENT_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})


@dataclass
class Policy:
    """How long innolint waits for GitHub, and how it paces itself."""

    #: seconds of waiting (rate limits, backoff) a run may spend in all
    max_wait: float = 300.0
    #: more seconds kept for the request that concludes a check run, whatever was spent before
    reserve: float = 120.0
    #: tries of one request
    attempts: int = 5
    per_minute: int = CONTENT_PER_MINUTE
    per_hour: int = CONTENT_PER_HOUR
    sleep: Callable[[float], None] = field(default=lambda seconds: _sleep(seconds))
    #: monotonic seconds (waiting, pacing)
    clock: Callable[[], float] = time.monotonic
    #: epoch seconds (x-ratelimit-reset is one)
    wall: Callable[[], float] = time.time


class ApiFailure(Exception):
    """A request GitHub refused, or never answered, after the waiting it was worth.

    `kind`: read-only-token, rate-limit, server-error, network, refused (another 4xx);
    `reason`: one sentence for people, naming the cause and what was tried."""

    def __init__(self, kind: str, reason: str, status: int | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.status = status


@dataclass
class Sent:
    """One request as the log keeps it."""

    label: str
    method: str
    bytes: int
    outcome: str  # "ok", an HTTP status, or an exception's name


@dataclass
class Calls:
    """Makes requests under a `Policy`; keeps the log and what was waited."""

    policy: Policy = field(default_factory=Policy)
    #: masks secrets in any text this module writes (the token)
    scrub: Callable[[str], str] = lambda text: text
    log: list[Sent] = field(default_factory=list)
    waited: float = 0.0
    _content: deque[float] = field(default_factory=deque)

    # -- what was done ----------------------------------------------------------------------------
    @property
    def requests(self) -> int:
        return len(self.log)

    @property
    def content_requests(self) -> int:
        return sum(1 for s in self.log if s.method in CONTENT_METHODS)

    @property
    def bytes_sent(self) -> int:
        return sum(s.bytes for s in self.log)

    def describe(self) -> str:
        """`12 requests (10 content-creating: 1 POST, 9 PATCH), 231 KB sent, waited 0 s`."""
        methods: dict[str, int] = {}
        for sent in self.log:
            if sent.method in CONTENT_METHODS:
                methods[sent.method] = methods.get(sent.method, 0) + 1
        kinds = ", ".join(f"{n} {m}" for m, n in sorted(methods.items(), key=lambda kv: ("POST", "PATCH").index(kv[0])
                                                          if kv[0] in ("POST", "PATCH") else 9))
        content = f" ({self.content_requests} content-creating: {kinds})" if kinds else ""
        return (f"{self.requests} request{'s' if self.requests != 1 else ''}{content}, "
                f"{self.bytes_sent / 1024:,.0f} KB sent, waited {self.waited:,.0f} s")

    # -- making one request -----------------------------------------------------------------------
    def call(
        self, label: str, method: str, action: Callable[[], T], *, payload: Any = None,
        settled: Callable[[], T | None] | None = None, final: bool = False,
    ) -> T:
        """`action()` (one request), retried as the module docstring says.

        `payload`: the JSON body, for the log's size; `settled`: asks GitHub whether a lost
        request was applied after all (returns its result, or None); `final`: the request may use
        the reserve (it concludes a check run). Raises ApiFailure."""
        from github import GithubException

        size = len(json.dumps(payload, ensure_ascii=False).encode("utf-8")) if payload is not None else 0
        content = method in CONTENT_METHODS
        last = ""
        for attempt in range(1, self.policy.attempts + 1):
            if content:
                self._pace(label, final)
            try:
                result = action()
            except GithubException as error:
                self.log.append(Sent(label, method, size, str(error.status)))
                kind, wait, last = self._judge(error, attempt)
                if wait is None:
                    raise ApiFailure(kind, self.scrub(last), error.status) from None
                lost = kind == "server-error"
            except Exception as error:  # noqa: BLE001 - a dropped connection, a timeout, DNS
                if not _network_error(error):
                    raise
                self.log.append(Sent(label, method, size, type(error).__name__))
                kind, wait, lost = "network", _backoff(attempt), True
                last = f"the connection to GitHub failed ({type(error).__name__})"
            else:
                self.log.append(Sent(label, method, size, "ok"))
                return result
            if lost and settled is not None:  # the request may have been applied before the answer was lost
                found = self._quietly(settled)
                if found is not None:
                    return found
            if attempt == self.policy.attempts:
                break
            self._wait(wait, kind, last, final)
        raise ApiFailure(kind, self.scrub(f"{last}, {self.policy.attempts} times in a row"), None)

    def _quietly(self, settled: Callable[[], T | None]) -> T | None:
        try:
            return settled()
        except Exception:  # noqa: BLE001 - asking failed too: treat the request as not applied
            return None

    def _judge(self, error: Any, attempt: int) -> tuple[str, float | None, str]:
        """(kind, seconds to wait or None for no retry, what happened) for an HTTP error."""
        status = int(error.status or 0)
        headers = {str(k).lower(): str(v) for k, v in (getattr(error, "headers", None) or {}).items()}
        data = getattr(error, "data", None)
        said = str(data.get("message") or "") if isinstance(data, dict) else ""
        what = f"GitHub answered HTTP {status}" + (f" ({said})" if said else "")
        retry_after = _seconds(headers.get("retry-after"))
        if status in (403, 429):
            if "resource not accessible" in said.lower():
                return ("read-only-token", None,
                        f"{what}: the token may not do this (a pull request from a fork gets a read-only token; "
                        "the workflow needs `permissions: checks: write` and `pull-requests: write` for a comment)")
            limited = status == 429 or retry_after is not None or headers.get("x-ratelimit-remaining") == "0" \
                or "rate limit" in said.lower()
            if limited:
                if retry_after is not None:
                    return "rate-limit", retry_after, f"{what}: rate limited, asked to wait {retry_after:,.0f} s (retry-after)"
                reset = _seconds(headers.get("x-ratelimit-reset"))
                if headers.get("x-ratelimit-remaining") == "0" and reset is not None:
                    wait = max(reset - self.policy.wall(), 0.0) + 1.0
                    return "rate-limit", wait, f"{what}: rate limit used up until x-ratelimit-reset, {wait:,.0f} s away"
                # no header says how long: at least a minute, exponentially longer (GitHub's advice)
                return "rate-limit", 60.0 * 2 ** (attempt - 1), f"{what}: secondary rate limit"
            return "refused", None, what
        if status >= 500:
            return "server-error", retry_after if retry_after is not None else _backoff(attempt), what
        return "refused", None, what

    def _wait(self, seconds: float, kind: str, last: str, final: bool) -> None:
        budget = self.policy.max_wait + (self.policy.reserve if final else 0.0)
        if self.waited + seconds > budget:
            raise ApiFailure(kind, self.scrub(
                f"{last}; waiting {seconds:,.0f} s more would exceed the {budget:,.0f} s innolint waits for GitHub "
                f"in one run (it had waited {self.waited:,.0f} s)"))
        self.policy.sleep(seconds)
        self.waited += seconds

    def _pace(self, label: str, final: bool) -> None:
        """Keep this run's content-creating requests under GitHub's 80 a minute and 500 an hour."""
        now = self.policy.clock()
        while self._content and now - self._content[0] >= 3600:
            self._content.popleft()
        recent = [t for t in self._content if now - t < 60]
        wait = 0.0
        if len(recent) >= self.policy.per_minute:
            wait = recent[-self.policy.per_minute] + 60 - now
        if len(self._content) >= self.policy.per_hour:
            wait = max(wait, self._content[-self.policy.per_hour] + 3600 - now)
        if wait > 0:
            self._wait(wait, "rate-limit", f"innolint paces itself under GitHub's {self.policy.per_minute} "
                       f"content-creating requests a minute and {self.policy.per_hour} an hour", final)
        self._content.append(self.policy.clock())


def _sleep(seconds: float) -> None:
    """Where a default `Policy` waits: `time.sleep` (the tests put a recorder here, so that
    nothing in them waits for real)."""
    time.sleep(seconds)


def _seconds(value: str | None) -> float | None:
    try:
        return max(float(value), 0.0) if value is not None else None
    except ValueError:
        return None


def _backoff(attempt: int) -> float:
    """2, 4, 8, 16 s: for 5xx and dropped connections."""
    return float(2 ** attempt)


def _network_error(error: Exception) -> bool:
    """A failure of the connection, not of innolint: requests' and http.client's, and OSError."""
    import http.client

    import requests

    return isinstance(error, (requests.exceptions.RequestException, http.client.HTTPException, OSError))
