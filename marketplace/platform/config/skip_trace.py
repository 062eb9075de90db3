"""Owner contact (skip trace) settings: who finds a lead owner's phone and e-mail and what a hit costs.
Read on every call (a job or a search reads them when it starts)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from marketplace.platform.config.environment import ConfigError, _int


SKIP_TRACE_PROVIDERS = ("demo", "batchdata")
BATCHDATA_SKIP_TRACE_DEFAULT_URL = "https://api.batchdata.com/api/v3"
# What one skip-trace hit costs in credits: skip-trace APIs bill cents per matched record, so a hit is priced
# near what the provider charges (2 credits, $0.30-$0.40 at the packs' prices); a miss is always free.
SKIP_TRACE_CREDITS_PER_HIT_DEFAULT = 2
SKIP_TRACE_CREDITS_PER_HIT_MAX = 1000


@dataclass(frozen=True)
class SkipTraceSettings:
    """Who finds a lead owner's phone and e-mail (``features/property/source_skip_trace.py``)."""

    provider: str  # SKIP_TRACE_PROVIDER: "demo" (default: built-in, labelled demo data) or "batchdata"
    batchdata_api_key: str | None = field(default=None, repr=False)  # BATCHDATA_API_KEY (never printed)
    batchdata_url: str = BATCHDATA_SKIP_TRACE_DEFAULT_URL  # BATCHDATA_SKIP_TRACE_URL: the v3 API root
    batchdata_timeout: str = "30"  # BATCHDATA_TIMEOUT as given (seconds; the client validates it)
    credits_per_hit: int = SKIP_TRACE_CREDITS_PER_HIT_DEFAULT  # SKIP_TRACE_CREDITS_PER_HIT: a hit's price (1-1000)


def skip_trace_settings() -> SkipTraceSettings:
    raw = (os.environ.get("SKIP_TRACE_PROVIDER") or "demo").strip().lower()
    if raw not in SKIP_TRACE_PROVIDERS:
        raise ConfigError(f"SKIP_TRACE_PROVIDER must be demo or batchdata, got {raw!r}")
    return SkipTraceSettings(
        provider=raw,
        batchdata_api_key=os.environ.get("BATCHDATA_API_KEY", "").strip() or None,
        batchdata_url=(os.environ.get("BATCHDATA_SKIP_TRACE_URL", "").strip().rstrip("/")
                       or BATCHDATA_SKIP_TRACE_DEFAULT_URL),
        batchdata_timeout=os.environ.get("BATCHDATA_TIMEOUT", "").strip() or "30",
        credits_per_hit=skip_trace_price(),
    )


def skip_trace_price() -> int:
    """SKIP_TRACE_CREDITS_PER_HIT: what a skip-trace hit costs in credits (default 2; a miss is free). Read on
    every call, like the rest of ``skip_trace_settings``; ``ConfigError`` outside 1-1000."""
    value = _int("SKIP_TRACE_CREDITS_PER_HIT", SKIP_TRACE_CREDITS_PER_HIT_DEFAULT)
    if not 1 <= value <= SKIP_TRACE_CREDITS_PER_HIT_MAX:
        raise ConfigError(f"SKIP_TRACE_CREDITS_PER_HIT must be 1-{SKIP_TRACE_CREDITS_PER_HIT_MAX}, got {value}")
    return value
