"""Owner contact providers (skip trace): the interface, the built-in demo provider, and the choice by settings.

A provider answers ``lookup(address, city, state, zip_code, owner_name)`` with a ``ContactResult``: the
phones (``property.rules_owner_contact.phone`` dicts) and e-mails it found, possibly none (a miss). It raises
``SourceError`` when it cannot answer (network, refused key, malformed reply): the service then charges
nothing and stores nothing. Providers never touch the database; ``features/property/service_owner_contact.py`` calls them
outside any transaction.

- ``DemoSkipTrace`` (``SKIP_TRACE_PROVIDER=demo``, the default, what ``make run`` uses): deterministic from
  the address, fictional numbers in the 555-0100..555-0199 range reserved for fiction, e-mails at
  example.com, every result ``demo=True`` (the page says it is demo data, ``messages.SKIP_TRACE_DEMO_NOTE``).
  About one address in five is a miss, so the free miss can be seen too.
- ``BatchDataSkipTrace`` (``SKIP_TRACE_PROVIDER=batchdata``): ``features/property/source_batchdata_skip_trace.py``.
"""

from __future__ import annotations

import hashlib
from typing import Protocol

from marketplace.platform.config import skip_trace_settings
from marketplace.features.property import rules_owner_contact as owner_contact
from marketplace.features.property.rules_owner_contact import ContactResult
from marketplace.features.scrape import SourceError


class SkipTraceProvider(Protocol):
    name: str

    def lookup(self, address: str, city: str, state: str, zip_code: str,
               owner_name: str | None) -> ContactResult: ...


def lookup_many(provider: SkipTraceProvider,
                items: list[tuple[str, str, str, str, str | None]]) -> list[ContactResult | None]:
    """Answers for several addresses: the provider's own batch call when it has one (BatchData sends up to
    100 a request), else one ``lookup`` each. None: no answer for that item (stored and charged nothing)."""
    batch = getattr(provider, "lookup_many", None)
    if callable(batch):
        answers = list(batch(items))
        if len(answers) != len(items):
            raise SourceError(f"{provider.name} answered {len(answers)} of {len(items)} requests.")
        return answers
    return [provider.lookup(*item) for item in items]


DEMO_AREA_CODES = ("212", "312", "415", "512", "602", "713", "305", "404")
DEMO_TYPES = ("Mobile", "Land Line")


class DemoSkipTrace:
    """Fictional, deterministic contacts for demos and ``make run`` (module docstring)."""

    name = "demo"

    def lookup(self, address: str, city: str, state: str, zip_code: str,
               owner_name: str | None) -> ContactResult:
        key = " ".join(f"{address}|{city}|{state}|{zip_code}".lower().split())
        h = hashlib.sha256(key.encode()).digest()
        name = owner_name or "Demo Owner"
        if h[0] % 5 == 0:
            return ContactResult(self.name, True, name)
        phones = []
        for i in range(1 + h[1] % 3):
            number = f"{DEMO_AREA_CODES[h[2 + i] % len(DEMO_AREA_CODES)]}5550{100 + h[5 + i] % 100:03d}"
            entry = owner_contact.phone(number, DEMO_TYPES[h[8 + i] % 2], dnc=h[11 + i] % 4 == 0)
            if entry and not any(owner_contact.same_number(p["number"], entry["number"]) for p in phones):
                phones.append(entry)
        emails = (f"owner{h[14] % 100:02d}.{h[15] % 1000:03d}@example.com",) if h[16] % 3 else ()
        return ContactResult(self.name, True, name, tuple(phones), emails)


def provider_from_settings() -> SkipTraceProvider:
    """The provider ``SKIP_TRACE_PROVIDER`` names (``ConfigError`` on an unknown name)."""
    settings = skip_trace_settings()
    if settings.provider == "batchdata":
        from marketplace.features.property.source_batchdata_skip_trace import BatchDataSkipTrace

        return BatchDataSkipTrace.from_settings()
    return DemoSkipTrace()
