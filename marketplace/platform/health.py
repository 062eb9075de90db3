"""The health check: a database round trip and, with REDIS_URL, a Redis ping; what is down, by name."""

from __future__ import annotations

from sqlalchemy import text

from marketplace.platform.config import get_settings
from marketplace.platform.db import is_outage, outage_line, read_scope


def ping_database() -> None:
    """One ``SELECT 1`` on a read connection: it never waits for a writer. Blocking."""
    with read_scope() as session:
        session.execute(text("SELECT 1"))


def ping_redis() -> None:
    """A PING to REDIS_URL (one second at most); nothing without it. Blocking."""
    url = get_settings().redis_url
    if not url:
        return
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.ping()
    finally:
        client.close()


def problems() -> dict[str, str]:
    """What is down, by name ('database', 'redis'), each with one line saying why; {} when all is up."""
    found: dict[str, str] = {}
    try:
        ping_database()
    except Exception as exc:  # noqa: BLE001 - reported by name; a bug is reported as the database's too
        found["database"] = outage_line(exc) if is_outage(exc) else f"Database error: {type(exc).__name__}"
    try:
        ping_redis()
    except Exception as exc:  # noqa: BLE001 - any failure to answer a PING is Redis being down
        why = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        found["redis"] = f"Redis error: cannot reach {_redis_place()} ({why})"
    return found


def _redis_place() -> str:
    from urllib.parse import urlparse

    parsed = urlparse(get_settings().redis_url or "")
    return f"{parsed.hostname or 'localhost'}:{parsed.port or 6379}"
