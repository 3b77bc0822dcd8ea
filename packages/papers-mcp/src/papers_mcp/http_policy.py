"""papers-mcp's one HTTP policy for every service it calls (arXiv, Semantic Scholar, OpenAlex).

Each service gets the same treatment, written once: a polite gate before every request (``RateGate``
in one process, mcp-shared's ``FleetGate`` in a fleet), a session that names papers-mcp in its
User-Agent and always has a timeout, bounded redirects and pooled connections, 429/503 turned into
``Unavailable`` with the server's ``Retry-After``, a size cap on every body, and ``with_retries``:
exponential backoff on transient failures, a ``Retry-After`` honoured up to a bound. Each client
says which failures are transient for its service and words the final failure itself.

Synchronous (requests): callers run these in a worker thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from importlib.metadata import version
from typing import Any, Protocol, TypeVar

import arxiv
import requests
from mcp_shared import ErrorCode, ToolFailure
from requests.adapters import HTTPAdapter

__all__ = [
    "RETRY_STATUSES",
    "USER_AGENT",
    "Exhausted",
    "Gate",
    "GatedSession",
    "RateGate",
    "Throttled",
    "Unavailable",
    "capped_body",
    "with_retries",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")

USER_AGENT = (
    f"papers-mcp/{version('papers-mcp')} (MCP server reading arXiv papers) arxiv.py/{arxiv.__version__}"
)
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
CHUNK = 64 * 1024
MAX_REDIRECTS = 5
_POOL_MAXSIZE = 64


class Gate(Protocol):
    """What every request waits at: ``RateGate`` in one process, mcp-shared's ``FleetGate`` in a fleet."""

    def wait(self) -> None: ...


class RateGate:
    """One request at a time, at least ``interval`` seconds apart, across every thread of the process."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._lock = threading.Lock()
        self._next = 0.0

    def wait(self) -> None:
        with self._lock:
            delay = self._next - time.monotonic()
            if delay > 0:
                logger.debug("rate gate: waiting %.2f s before the next request", delay)
                time.sleep(delay)
            self._next = time.monotonic() + self.interval


class Throttled(Exception):
    """arXiv's soft throttle: HTTP 200 whose body is ``Rate exceeded.``."""


class Unavailable(Exception):
    """HTTP 429 or 5xx, with the server's Retry-After (seconds) when it sent one."""

    def __init__(self, status: int, retry_after: float | None, service: str = "arXiv") -> None:
        super().__init__(f"{service} answered HTTP {status}")
        self.status = status
        self.retry_after = retry_after


class Exhausted(Exception):
    """Every try failed (or a Retry-After was longer than the caller will wait): ``failure`` was the last."""

    def __init__(self, failure: Exception, tries: int) -> None:
        super().__init__(str(failure))
        self.failure = failure
        self.tries = tries


def retry_after(value: str | None) -> float | None:
    """Retry-After in seconds (the HTTP-date form is rare from these services and is ignored)."""
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None


class GatedSession(requests.Session):
    """A requests session that waits at the gate, names papers-mcp and never waits forever.

    ``check_body`` (arXiv's feed check) reads a 200 answer before it is returned.
    """

    def __init__(
        self,
        gate: Gate,
        timeout: float,
        service: str = "arXiv",
        check_body: Callable[[bytes], None] | None = None,
    ) -> None:
        super().__init__()
        self.max_redirects = MAX_REDIRECTS
        # Tool calls run on worker threads (anyio's 40 by default), so more than requests' 10 pooled
        # connections per host can be open at once: a pool that small discards them with a warning
        # per request under load.
        adapter = HTTPAdapter(pool_maxsize=_POOL_MAXSIZE)
        self.mount("http://", adapter)
        self.mount("https://", adapter)
        self._gate = gate
        self._timeout = timeout
        self._service = service
        self._check_body = check_body

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        request.headers["User-Agent"] = USER_AGENT
        if kwargs.get("timeout") is None:
            kwargs["timeout"] = self._timeout
        self._gate.wait()
        response = super().send(request, **kwargs)
        if response.status_code in (429, 503):
            response.close()
            raise Unavailable(
                response.status_code, retry_after(response.headers.get("Retry-After")), self._service
            )
        if self._check_body is not None and response.status_code == 200:
            self._check_body(response.content)
        return response


def capped_body(response: requests.Response, cap: int, what: str) -> bytes:
    """The whole body, refused (DATA_FORMAT_ERROR) past ``cap`` bytes; arXiv's soft throttle is ``Throttled``."""
    length = response.headers.get("Content-Length")
    if length and length.isdigit() and int(length) > cap:
        raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{what} exceeds {cap} bytes")
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_content(CHUNK):
        if size == 0 and chunk.lstrip().startswith(b"Rate exceeded"):
            raise Throttled("arXiv answered 'Rate exceeded.'")
        size += len(chunk)
        if size > cap:
            raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{what} exceeds {cap} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def with_retries(
    what: str,
    attempt: Callable[[], T],
    *,
    tries: int,
    backoff: float,
    transient: Callable[[Exception], bool],
    max_retry_after: float,
    long_wait_fails: bool = False,
) -> T:
    """``attempt`` with exponential backoff while its failure is ``transient``.

    A ``Retry-After`` is waited out up to ``max_retry_after`` seconds; a longer one is capped, or with
    ``long_wait_fails`` ends the tries at once (so a caller can ask another service instead).
    A ``ToolFailure`` or a failure that is not transient is raised as it is.

    Raises:
        Exhausted: the last transient failure, after ``tries`` tries (or a Retry-After too long to wait).
    """
    failure: Exception | None = None
    for index in range(tries):
        try:
            return attempt()
        except ToolFailure:
            raise
        except Exception as exc:
            if not transient(exc):
                raise
            failure = exc
        wait = failure.retry_after if isinstance(failure, Unavailable) else None
        if wait is not None and wait > max_retry_after and long_wait_fails:
            raise Exhausted(failure, index + 1) from failure
        if index + 1 < tries:
            delay = backoff * (2**index)
            if wait is not None:
                delay = max(delay, min(wait, max_retry_after))
            logger.warning("%s: %s; retry %d of %d in %.1f s", what, failure, index + 1, tries - 1, delay)
            time.sleep(delay)
    assert failure is not None
    raise Exhausted(failure, tries) from failure
