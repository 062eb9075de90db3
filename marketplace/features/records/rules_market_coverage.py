"""What a market holds, in words (the marketplace's Location filter, the explorer's Sources panel). Pure.

A market (``marketplace/features/records/markets/<id>.toml``) names its datasets by role; a dataset is *imported* when a
run of it stored records. The words list the imported datasets by role ('Roll: Assessor - Parcel
Addresses · Sales: Assessor - Parcel Sales · Lists: Treasurer - Annual Tax Sale'); completeness says for
each of roll, sales and lists whether the market has it imported, configured only, or missing
('Roll: imported', 'Sales: configured, not imported', 'Lists: missing').
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping

ROLE_WORDS = (("roll", "Roll"), ("sales", "Sales"), ("lists", "Lists"))
IMPORTED, CONFIGURED, MISSING = "imported", "configured, not imported", "missing"


def holds_text(roles: Mapping[str, Iterable[str]], imported: Iterable[str], title: Callable[[str], str]) -> str:
    """The imported datasets of a market by role, titles in the market file's order; '' for none."""
    done = set(imported)
    parts = []
    for role, word in ROLE_WORDS:
        titles = [title(d) for d in roles.get(role, ()) if d in done]
        if titles:
            parts.append(f"{word}: {', '.join(titles)}")
    return " · ".join(parts)


def role_status(datasets: Iterable[str], imported: Iterable[str]) -> str:
    """One role's completeness: imported (any of its datasets), configured (named, none imported), missing."""
    named = list(datasets)
    if not named:
        return MISSING
    return IMPORTED if set(named) & set(imported) else CONFIGURED


def completeness(roles: Mapping[str, Iterable[str]], imported: Iterable[str]) -> list[tuple[str, str]]:
    """[(word, status)] for roll, sales and lists."""
    done = set(imported)
    return [(word, role_status(roles.get(role, ()), done)) for role, word in ROLE_WORDS]


def completeness_text(roles: Mapping[str, Iterable[str]], imported: Iterable[str]) -> str:
    """'Roll: imported · Sales: missing · Lists: imported'."""
    return " · ".join(f"{word}: {status}" for word, status in completeness(roles, imported))


def leads_text(count: int) -> str:
    return f"{count:,} live lead{'' if count == 1 else 's'}"


def dataset_page_url(protocol: str, endpoint: str, resource: str) -> str | None:
    """The public page of a dataset on its portal: a Socrata dataset's '/d/<id>' page, an ArcGIS layer's
    REST page, else the portal itself; None without an http(s) endpoint (a file found elsewhere)."""
    endpoint = (endpoint or "").rstrip("/")
    if not endpoint.startswith(("https://", "http://")):
        return None
    if protocol == "socrata" and resource:
        return f"{endpoint}/d/{resource}"
    if protocol == "arcgis" and resource:
        return f"{endpoint}/{resource}"
    return endpoint
