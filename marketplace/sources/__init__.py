"""Where leads come from: one interface (``base.LeadSource``), several sources."""

from __future__ import annotations

from marketplace.config import lead_settings


def get_source():
    """The configured source: ``LEAD_SOURCE=builtin`` (default) or ``http`` (RentCast)."""
    kind = lead_settings().source
    if kind == "builtin":
        from marketplace.sources.builtin import BuiltinSource

        return BuiltinSource()
    if kind == "http":
        from marketplace.sources.http import HttpLeadSource

        return HttpLeadSource.from_env()
    raise ValueError(f"Unknown LEAD_SOURCE {kind!r}; use 'builtin' or 'http'.")
