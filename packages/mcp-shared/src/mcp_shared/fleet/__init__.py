"""A fleet's shared state in Redis (the ``fleet`` extra: ``pip install mcp-shared[fleet]``).

- ``connect_store``: one connection per server, or None for the embedded default; ``RedisStore``
  bounds every call and words every failure (``RedisUnavailable``, a RESOURCE_ERROR)
- ``RedisTTLCache`` and ``redis_caches``: ``TTLStatsCache``'s API over Redis, for ``CacheRegistry``
- ``LeaseLock`` and ``produce_once``: one computation per key across replicas
- ``FleetGate``: one polite request interval for the whole fleet

Importing this package never imports ``redis``; connecting does.
"""

from .cache import RedisTTLCache, redis_caches
from .gate import FleetGate
from .lease import LeaseLock, LeaseWaitTimeout, produce_once
from .store import RedisStore, RedisUnavailable, connect_store, redact_url

__all__ = [
    "FleetGate",
    "LeaseLock",
    "LeaseWaitTimeout",
    "RedisStore",
    "RedisTTLCache",
    "RedisUnavailable",
    "connect_store",
    "produce_once",
    "redact_url",
    "redis_caches",
]
