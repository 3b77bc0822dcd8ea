"""A lock with a lease, in Redis: one replica of a fleet does a piece of work, the others wait for its result.

The holder sets ``<namespace>lease:<name>`` to a random token with an expiry (``SET NX PX``)
and renews it every third of the lease while it works; renewal and release check the token
(a Lua script), so a holder whose lease ran out can neither extend nor delete its successor's.
A holder that dies (``kill -9``, a lost machine) stops renewing, the lease expires, and a
waiter takes over: the work is never lost and never done twice at the same time.

``produce_once`` is the pattern built on it: read the shared result; else take the lease and
produce it; else wait (polling, with a bounded total wait) for the holder's result.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import anyio

from .store import RedisStore

__all__ = ["LeaseLock", "LeaseWaitTimeout", "produce_once"]

logger = logging.getLogger(__name__)

T = TypeVar("T")

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""
_POLL_FIRST_SECONDS = 0.02
_POLL_MAX_SECONDS = 0.25


class LeaseWaitTimeout(Exception):
    """Waited ``max_wait`` seconds for another holder's result; the caller decides what follows."""


class LeaseLock:
    """One named lease; each instance has its own token, so two instances contend like two replicas."""

    def __init__(self, store: RedisStore, name: str, lease_seconds: float) -> None:
        if lease_seconds <= 0:
            raise ValueError("lease_seconds must be > 0")
        self.store = store
        self.key = store.key("lease", name)
        self.lease_ms = max(1, int(lease_seconds * 1000))
        self.token = secrets.token_hex(16)
        self._renew = store.client.register_script(_RENEW)
        self._release = store.client.register_script(_RELEASE)

    # -- blocking operations (worker threads) --

    def acquire(self) -> bool:
        """Take the lease if nobody holds it. Raises ``RedisUnavailable``."""
        return bool(
            self.store.call(lambda: self.store.client.set(self.key, self.token, nx=True, px=self.lease_ms))
        )

    def renew(self) -> bool:
        """Extend the lease; False when it was lost (expired and maybe taken by another)."""
        return bool(self.store.call(lambda: self._renew(keys=[self.key], args=[self.token, self.lease_ms])))

    def release(self) -> None:
        """Give the lease up if still ours."""
        self.store.call(lambda: self._release(keys=[self.key], args=[self.token]))

    def holder_alive(self) -> bool:
        """Whether anyone holds the lease now."""
        return bool(self.store.call(lambda: self.store.client.exists(self.key)))

    # -- async helpers --

    async def aacquire(self) -> bool:
        return await self.store.run(self.acquire)

    async def arelease(self) -> None:
        await self.store.run(self.release)

    @asynccontextmanager
    async def renewing(self) -> AsyncIterator[None]:
        """Keep the (already acquired) lease renewed until the block exits, then release it.

        A daemon thread renews every third of the lease, so renewal goes on while the event
        loop or a worker thread is busy with the work itself.
        """
        stop = threading.Event()
        thread = threading.Thread(target=self._keep, args=(stop,), name=f"lease {self.key}", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            with anyio.CancelScope(shield=True):
                try:
                    await self.arelease()
                except Exception:  # it expires on its own
                    logger.debug("could not release the lease %s", self.key, exc_info=True)

    def _keep(self, stop: threading.Event) -> None:
        while not stop.wait(self.lease_ms / 3000):
            try:
                if not self.renew():
                    logger.warning("lost the lease %s while working; another replica may take over", self.key)
                    return
            except Exception:  # an outage: the lease may lapse; the work itself goes on
                logger.debug("could not renew the lease %s", self.key, exc_info=True)


async def produce_once(
    lease: LeaseLock,
    read: Callable[[], Awaitable[T | None]],
    produce: Callable[[], Awaitable[T]],
    *,
    max_wait: float,
    on_wait: Callable[[], Awaitable[Any]] | None = None,
) -> tuple[T, bool]:
    """The shared result, produced by exactly one holder of ``lease`` at a time.

    Returns ``(value, produced_here)``. ``read`` returns the shared result or None; ``produce``
    makes it and must store it where ``read`` finds it. Waiting polls ``read`` and the lease
    (20 ms rising to 250 ms); when the holder is gone without a result (it failed or died),
    the next waiter takes the lease and produces. ``on_wait`` is awaited once, when waiting starts.

    Raises:
        LeaseWaitTimeout: no result and no lease within ``max_wait`` seconds.
        RedisUnavailable: Redis failed (callers fall back or report it).
    """
    deadline = time.monotonic() + max_wait
    poll = _POLL_FIRST_SECONDS
    announced = False
    while True:
        found = await read()
        if found is not None:
            return found, False
        if await lease.aacquire():
            async with lease.renewing():
                found = await read()  # the holder before us may have finished between our read and acquire
                if found is not None:
                    return found, False
                return await produce(), True
        if not announced and on_wait is not None:
            announced = True
            await on_wait()
        if time.monotonic() >= deadline:
            raise LeaseWaitTimeout(f"waited {max_wait:g} s for {lease.key}")
        await anyio.sleep(poll)
        poll = min(poll * 2, _POLL_MAX_SECONDS)
