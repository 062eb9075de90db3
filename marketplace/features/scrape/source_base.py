"""The lead-source interface every producer of leads implements.

The refresh job, the bulk scraper, the webhook API and the developer explorer
all ask a ``LeadSource`` for leads with a ``marketplace.rules_criteria.SearchCriteria`` and
get back typed ``LeadRecord`` dicts (``marketplace.rules_leads``) ready for the ``leads`` table.
"""

from __future__ import annotations

from typing import Protocol

from marketplace.features.marketplace import SearchCriteria
from marketplace.platform.leads import LeadRecord


class SourceError(RuntimeError):
    """The source failed (network, provider error, bad data)."""


class LeadSource(Protocol):
    name: str

    def search(self, criteria: SearchCriteria) -> list[LeadRecord]:
        """Leads matching every criterion, at most ``criteria.count``."""
        ...


__all__ = ["SourceError", "LeadSource"]
