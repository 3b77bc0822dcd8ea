"""A rate gate shared by every replica of a fleet: one request per interval, fleet-wide.

Each request reserves the next free slot atomically in Redis (a Lua script reading Redis's
own clock, so the replicas' clocks never matter): ``slot = max(next, now)``, ``next = slot +
interval``. The caller then sleeps until its slot. Slots are handed out in the order requests
reach Redis, so the gate is first come, first served, and no replica can starve another.

The wait is bounded: a request whose slot would be more than ``max_wait`` seconds away takes
no slot and fails at once with a RESOURCE_ERROR, instead of queueing behind a backlog it
cannot see. If Redis is unreachable the gate fails (RESOURCE_ERROR) rather than letting the
replica call the service on its own, which would multiply the fleet's rate.

A small guard (``GUARD_SECONDS``) is added to each interval, so the jitter between a
replica's reservation reply and its wake-up cannot bring two requests closer than the interval.
"""

from __future__ import annotations

import logging
import time

from ..errors import ErrorCode, ToolFailure
from .store import RedisStore

__all__ = ["FleetGate"]

logger = logging.getLogger(__name__)

GUARD_SECONDS = 0.025

_RESERVE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nxt = tonumber(redis.call('GET', KEYS[1]) or '0')
local slot = math.max(nxt, now)
local wait = slot - now
if wait > tonumber(ARGV[2]) then
    return {0, wait}
end
redis.call('SET', KEYS[1], slot + tonumber(ARGV[1]), 'PX', wait + tonumber(ARGV[1]) + 60000)
return {1, wait}
"""


class FleetGate:
    """``wait()`` blocks until this replica may send its next request (call it from a worker thread)."""

    def __init__(self, store: RedisStore, name: str, interval: float, max_wait: float, service: str) -> None:
        self.store = store
        self.key = store.key("gate", name)
        self.interval = interval
        self.max_wait = max_wait
        self.service = service
        self._interval_ms = int((interval + GUARD_SECONDS) * 1000) if interval > 0 else 0
        self._max_wait_ms = int(max_wait * 1000)
        self._reserve = store.client.register_script(_RESERVE)

    def wait(self) -> None:
        """Reserve the next fleet-wide slot and sleep until it.

        Raises:
            ToolFailure: RESOURCE_ERROR when the next slot is more than ``max_wait`` away, or
                Redis cannot be reached (``RedisUnavailable``).
        """
        if self._interval_ms == 0:
            return
        granted, wait_ms = self.store.call(
            lambda: self._reserve(keys=[self.key], args=[self._interval_ms, self._max_wait_ms])
        )
        if not int(granted):
            raise ToolFailure(
                ErrorCode.RESOURCE_ERROR,
                f"the fleet's requests to {self.service} are queued {int(wait_ms) / 1000:.0f} s ahead "
                f"(one request per {self.interval:g} s across all replicas; the limit is "
                f"{self.max_wait:g} s of waiting); try again in a minute",
            )
        delay = int(wait_ms) / 1000
        if delay > 0:
            logger.debug("fleet gate %s: waiting %.2f s for this replica's slot", self.key, delay)
            time.sleep(delay)
