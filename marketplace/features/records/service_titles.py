"""What public-record leads say about their datasets: each dataset's title and publisher, how old its records
may be (``max_age_days``), a signal's label and the lead's source line. Read from the dataset files once per
process (``titles``); ``record_leads`` and ``record_views`` use it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Iterable

from marketplace.features.records.rules import SALE_LABELS

SOURCE_LENGTH = 64  # leads.source

# A dataset as this module needs it: its id -> (title, publisher). A ``DatasetLookup`` also knows each
# dataset's ``max_age_days`` (``max_age_for``); a plain callable knows none (nothing goes stale by age).
TitleLookup = Callable[[str], tuple[str, str]]
MaxAgeLookup = Callable[[str], "int | None"]


class DatasetLookup:
    """Dataset id -> (title, publisher), plus ``max_age_days(id)`` (None for a dataset it does not know)."""

    def __init__(self, known: dict[str, tuple[str, str]], ages: dict[str, int | None]) -> None:
        self._known, self._ages = known, ages

    def __call__(self, dataset_id: str) -> tuple[str, str]:
        return self._known.get(dataset_id, (dataset_id, ""))

    def max_age_days(self, dataset_id: str) -> int | None:
        return self._ages.get(dataset_id)


def max_age_for(titles: Any) -> MaxAgeLookup:
    """The maximum-age lookup a title lookup carries (a ``DatasetLookup``), else one that knows none."""
    ages = getattr(titles, "max_age_days", None)
    return ages if callable(ages) else (lambda _dataset_id: None)


def ages_with(titles: Any, dataset: Any) -> MaxAgeLookup:
    """``max_age_for(titles)``, with ``dataset``'s own ``max_age_days`` (the dataset being ingested)."""
    others, own = max_age_for(titles), getattr(dataset, "max_age_days", None)
    return lambda dataset_id: own if dataset_id == dataset.id else others(dataset_id)


_KIND_LABELS = {
    "tax_delinquent": "Tax delinquent", "foreclosure": "Foreclosure", "vacant": "Vacant",
    "code_violation": "Code violation", "sale_list": "Sale list", "probate": "Probate",
}


def signal_label(kind: str, sale_type: str | None) -> str:
    if kind == "sale_list" and sale_type in SALE_LABELS:
        return SALE_LABELS[sale_type]
    return _KIND_LABELS.get(kind, kind.replace("_", " ").capitalize())


def list_place(dataset_id: str, publisher: str) -> str:
    """Whose list a dataset is: its market's county ('Baltimore City'), else its publisher."""
    from marketplace.features.records.source_opendata.markets import market_of

    try:
        market = market_of(dataset_id)
    except Exception:  # noqa: BLE001 - a market file that cannot be read names no county: the publisher does
        market = None
    return market.county if market is not None else publisher


def short_source(title: str) -> str:
    """The dataset title as ``leads.source`` (64 characters; a longer title is cut with '...')."""
    return title if len(title) <= SOURCE_LENGTH else title[:SOURCE_LENGTH - 3].rstrip() + "..."


def dataset_titles(datasets: Iterable[Any]) -> DatasetLookup:
    """A lookup dataset id -> (title, publisher) for ``record_leads`` (unknown ids read as their id), which
    also knows each dataset's ``max_age_days``."""
    datasets = list(datasets)
    known = {d.id: (getattr(d, "title", None) or d.id, getattr(d, "publisher", None) or "") for d in datasets}
    return DatasetLookup(known, {d.id: getattr(d, "max_age_days", None) for d in datasets})


def dataset_files() -> dict[str, Any]:
    """Every dataset file (``OPEN_DATA_DIR``, else the shipped ``marketplace/features/records/datasets``), by id."""
    from marketplace.platform.config import lead_settings
    from marketplace.features.records import source_opendata as opendata

    return opendata.load_datasets(lead_settings().open_data_dir)


@lru_cache(maxsize=1)
def _all_titles() -> DatasetLookup:
    return dataset_titles(dataset_files().values())


def titles() -> DatasetLookup:
    """Dataset id -> (title, publisher) and maximum age of every dataset file (read once per process)."""
    return _all_titles()
