"""One Redis connection for a fleet's shared state, and the one place its failures are worded.

A server given ``<PREFIX>_REDIS_URL`` (or ``--redis-url``) connects once at start-up: an
unreachable Redis stops start-up with a CONFIGURATION_ERROR naming the URL (its password
masked). During service every Redis call goes through ``RedisStore.call``, which bounds it by
a socket timeout and turns any failure into ``RedisUnavailable`` (a RESOURCE_ERROR naming the
same masked URL). After a failure the store answers "unavailable" at once for a short
cool-down instead of waiting on the socket again, so an outage costs each call microseconds,
not the timeout; the first call after the cool-down tries Redis again.

The client is redis-py's synchronous one: the arXiv gate and the library run in worker
threads, and async callers use ``RedisStore.run``, which runs the call in a worker thread of
its own capacity limiter (so Redis calls never queue behind long spaCy or PDF work).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import urlsplit, urlunsplit

import anyio
import anyio.to_thread

from ..env import SettingsError
from ..errors import ErrorCode, ToolFailure

if TYPE_CHECKING:
    import redis

__all__ = ["RedisStore", "RedisUnavailable", "connect_store", "redact_url"]

logger = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_TIMEOUT_SECONDS = 2.0
"""Longest one Redis call may take before it counts as a failure."""
COOL_DOWN_SECONDS = 1.0
"""After a failure, how long calls fail at once instead of trying Redis again."""
_THREADS = 16


def redact_url(url: str) -> str:
    """``url`` with its password (and a user name that may be a secret) replaced by ``***``."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        return "<unparseable URL>"
    if parts.password is None and parts.username is None:
        return url
    netloc = f"***@{host}" if ":" not in host else f"***@[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None:
        netloc += f":{port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


class RedisUnavailable(ToolFailure):
    """Redis did not answer (refused, timed out, reset): a RESOURCE_ERROR naming the masked URL."""

    def __init__(self, url: str, detail: str) -> None:
        super().__init__(
            ErrorCode.RESOURCE_ERROR,
            f"the fleet's shared state in Redis at {url} is unavailable ({detail}); try again shortly",
        )


class RedisStore:
    """A connection pool to one Redis, a key namespace, and failure handling; thread-safe."""

    def __init__(self, client: redis.Redis, url: str, namespace: str) -> None:
        self.client = client
        self.url = redact_url(url)
        self.namespace = namespace
        self._down_until = 0.0
        self._down_reason = ""
        self._state_lock = threading.Lock()
        self._limiter: anyio.CapacityLimiter | None = None

    @classmethod
    def connect(
        cls,
        url: str,
        namespace: str,
        *,
        variable: str = "REDIS_URL",
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
    ) -> RedisStore:
        """Connect and PING once.

        Raises:
            SettingsError: CONFIGURATION_ERROR naming ``variable`` and the masked URL, when the URL
                is malformed or Redis does not answer.
        """
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        shown = redact_url(url)
        try:
            client = redis.Redis.from_url(
                url,
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
                # One quick retry: a pooled connection that Redis closed (a restart) reconnects once.
                retry=Retry(NoBackoff(), 1),
                health_check_interval=30,
                client_name=namespace.rstrip(":"),
            )
        except ValueError as exc:
            raise SettingsError(f"{variable}={shown} is not a Redis URL ({exc})") from None
        try:
            client.ping()
        except redis.RedisError as exc:
            client.close()
            raise SettingsError(
                f"{variable}={shown}: Redis cannot be reached ({type(exc).__name__}: {exc})"
            ) from None
        logger.info("shared state in Redis at %s (keys under %r)", shown, namespace)
        return cls(client, url, namespace)

    def key(self, *parts: str) -> str:
        """A key in this server's namespace: ``<namespace>part:part``."""
        return self.namespace + ":".join(parts)

    # -- calls --

    def call(self, operation: Callable[[], T]) -> T:
        """Run one Redis operation (blocking); any Redis failure becomes ``RedisUnavailable``."""
        import redis

        with self._state_lock:
            if time.monotonic() < self._down_until:
                raise RedisUnavailable(self.url, self._down_reason)
        try:
            return operation()
        except redis.RedisError as exc:
            reason = f"{type(exc).__name__}: {exc}"[:200]
            with self._state_lock:
                first = self._down_until == 0.0 or time.monotonic() >= self._down_until + 5
                self._down_until = time.monotonic() + COOL_DOWN_SECONDS
                self._down_reason = reason
            log = logger.warning if first else logger.debug
            log("Redis at %s failed: %s", self.url, reason)
            raise RedisUnavailable(self.url, reason) from exc

    async def run(self, operation: Callable[[], T]) -> T:
        """``call`` from async code, in a worker thread of the store's own limiter."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(_THREADS)
        return await anyio.to_thread.run_sync(self.call, operation, limiter=self._limiter)

    def ping(self) -> bool:
        """Whether Redis answers now (for readiness checks); never raises."""
        try:
            return bool(self.call(self.client.ping))
        except RedisUnavailable:
            return False

    def close(self) -> None:
        self.client.close()


def connect_store(
    url: str | None, namespace: str, *, variable: str, timeout: float, extra: str
) -> RedisStore | None:
    """A server's shared state: None without a URL (the embedded default), else a connected store.

    ``extra`` names what to install when ``redis`` is missing (``"papers-mcp[fleet]"``): the fleet
    is an optional extra, so a single-user install never pulls the Redis client.

    Raises:
        SettingsError: ``redis`` is not installed, the URL is malformed or Redis does not answer
            (CONFIGURATION_ERROR naming ``variable`` and the masked URL).
    """
    if not url:
        return None
    try:
        import redis  # noqa: F401 - only to tell the person what to install
    except ImportError:
        raise SettingsError(
            f"{variable}={redact_url(url)}: a fleet needs the Redis client: install {extra}"
        ) from None
    return RedisStore.connect(url, namespace, variable=variable, timeout=timeout)
