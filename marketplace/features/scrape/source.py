"""Where leads come from: one interface (``base.LeadSource``), several sources."""

from __future__ import annotations

from marketplace.platform.config import lead_settings


def get_source():
    """The configured source: ``LEAD_SOURCE=builtin`` (default) or ``http`` (RentCast)."""
    kind = lead_settings().source
    if kind == "builtin":
        from marketplace.features.scrape.source_builtin import BuiltinSource

        return BuiltinSource()
    if kind == "http":
        from marketplace.features.scrape.source_http import HttpLeadSource

        return HttpLeadSource.from_env()
    raise ValueError(f"Unknown LEAD_SOURCE {kind!r}; use 'builtin' or 'http'.")
