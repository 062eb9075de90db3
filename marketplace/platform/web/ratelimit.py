"""Rate limits for the public API, with the maintained ``limits`` library.

In memory by default (one worker); in Redis when ``REDIS_URL`` is set, so every
worker shares one count. A moving window: at most N hits in any 1-second (or
1-minute) span.
If Redis cannot be reached the request is let through and the failure logged:
a cache outage must not take the API down with it.
"""

from __future__ import annotations

import logging

from limits import RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter

from marketplace.platform.config import get_settings

log = logging.getLogger("marketplace.ratelimit")

WEBHOOK_PER_SECOND = 5  # SPEC 9: 5 requests per second per IP


class Limiter:
    def __init__(self, namespace: str, per_second: int = 0, *, per_minute: int = 0):
        self.namespace = namespace
        self.item = RateLimitItemPerMinute(per_minute) if per_minute else RateLimitItemPerSecond(per_second)
        self._limiter: MovingWindowRateLimiter | None = None
        self._redis_url: str | None = None

    def _get(self) -> MovingWindowRateLimiter:
        redis_url = get_settings().redis_url
        if self._limiter is None or redis_url != self._redis_url:
            if redis_url:
                uri = "async+" + redis_url if not redis_url.startswith("async+") else redis_url
                storage = RedisStorage(uri, implementation="redispy", key_prefix="leadvault-rl")
            else:
                storage = MemoryStorage()
            self._limiter = MovingWindowRateLimiter(storage)
            self._redis_url = redis_url
        return self._limiter

    async def hit(self, key: str) -> bool:
        """Count one request for ``key``; False when it is over the limit."""
        try:
            return await self._get().hit(self.item, self.namespace, key or "unknown")
        except Exception:  # noqa: BLE001 - fail open on a storage outage, loudly
            log.exception("rate limiter storage failed; request allowed")
            return True

    async def reset(self) -> None:
        """Forget every count (tests)."""
        if self._limiter is not None:
            await self._limiter.storage.reset()


webhook_limiter = Limiter("webhook", WEBHOOK_PER_SECOND)
