"""Markets are data: one ``marketplace/features/records/markets/<id>.toml`` per county (or city that is its own county)
names its datasets by role and how its parcels join.

- ``roll``: the assessor's roll (street address, facts, owner and mailing address, assessed/market value);
- ``sales``: recorded sales (the last sale, comparable sales);
- ``lists``: the distress lists that make leads (tax sales, delinquencies, vacancy, violations, vacate
  orders, lien sales, probate documents);
- ``price_index``: the house price index the values are indexed with (national datasets serve every market).

``parcel_id`` names the ``records.rules_parcel_ids`` normaliser every dataset of the market applies to its parcel
column (Cook's 14-digit PIN, Philadelphia's 9-digit OPA account, New York's borough-block-lot), or is
empty where the published text is used as it is; the address key is the fallback join for records without
a parcel id. Every dataset other than a price index belongs to exactly one market, and a role only holds
datasets of its kind (``load_markets`` checks both against ``marketplace/features/records/datasets``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from marketplace.features.records.source_opendata.dataset import DATASETS_DIR, Dataset, load_datasets

MARKETS_DIR = Path(__file__).resolve().parents[1] / "markets"
ROLES = ("roll", "sales", "lists", "price_index")
PARCEL_NORMALISERS = ("", "cook_pin", "phl_opa", "nyc_bbl")
_KEYS = ("id", "name", "county", "state", "parcel_id", "roll_publisher", "roles")
# Which dataset kinds each role takes (a distress list is every kind that makes a signal).
_ROLE_KINDS = {"roll": ("assessment",), "sales": ("recorded_sale",), "price_index": ("hpi",)}


@dataclass(frozen=True)
class Market:
    id: str
    name: str                 # "Cook County, IL": what the Location filter and the explorer show
    county: str               # "Cook County": "<county>'s assessor roll"
    state: str
    parcel_id: str            # a records.rules_parcel_ids normaliser name, or "" (the text as published)
    roll_publisher: str       # "Cook County Assessor": the basis line of roll values, "" without a roll
    roll: tuple[str, ...]
    sales: tuple[str, ...]
    lists: tuple[str, ...]
    price_index: tuple[str, ...]

    @property
    def datasets(self) -> tuple[str, ...]:
        """Every dataset id of the market, roll first, then sales, lists and the price index."""
        return (*self.roll, *self.sales, *self.lists, *self.price_index)

    def role_of(self, dataset_id: str) -> str | None:
        for role in ROLES:
            if dataset_id in getattr(self, role):
                return role
        return None


def load_markets(directory: str | Path | None = None,
                 datasets: Mapping[str, Dataset] | None = None) -> dict[str, Market]:
    """Every market file of ``directory`` (default ``marketplace/features/records/markets``) by id, checked against the
    dataset files; ``ValueError("<file>: <what is wrong>")`` otherwise."""
    folder = Path(directory) if directory is not None else MARKETS_DIR
    known = dict(datasets) if datasets is not None else load_datasets(DATASETS_DIR)
    markets: dict[str, Market] = {}
    owner: dict[str, str] = {}
    for path in sorted(folder.glob("*.toml")):
        market = _load(path, known)
        if market.id in markets:
            raise ValueError(f"{path.name}: id: {market.id!r} is used by another market file")
        for dataset_id in (*market.roll, *market.sales, *market.lists):
            if dataset_id in owner:
                raise ValueError(f"{path.name}: {dataset_id} already belongs to market {owner[dataset_id]}")
            owner[dataset_id] = market.id
        markets[market.id] = market
    return markets


def _load(path: Path, known: Mapping[str, Dataset]) -> Market:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path.name}: cannot be read as TOML ({exc})") from None
    unknown = sorted(set(raw) - set(_KEYS))
    if unknown:
        raise ValueError(f"{path.name}: unknown keys {', '.join(unknown)}")
    text = {}
    for key in ("id", "name", "county", "state", "parcel_id", "roll_publisher"):
        value = raw.get(key)
        if not isinstance(value, str) or (not value.strip() and key not in ("parcel_id", "roll_publisher")):
            raise ValueError(f"{path.name}: {key}: required text")
        text[key] = value.strip()
    if text["id"] != path.stem:
        raise ValueError(f"{path.name}: id: {text['id']!r} is not the file's name")
    if len(text["state"]) != 2 or not text["state"].isalpha():
        raise ValueError(f"{path.name}: state: a two-letter state code, not {text['state']!r}")
    if text["parcel_id"] not in PARCEL_NORMALISERS:
        raise ValueError(f"{path.name}: parcel_id: one of {', '.join(repr(n) for n in PARCEL_NORMALISERS)}")
    roles = raw.get("roles")
    if not isinstance(roles, dict) or sorted(roles) != sorted(ROLES):
        raise ValueError(f"{path.name}: roles: a table with exactly {', '.join(ROLES)}")
    by_role: dict[str, tuple[str, ...]] = {}
    for role in ROLES:
        ids = roles[role]
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ValueError(f"{path.name}: roles.{role}: a list of dataset ids")
        for dataset_id in ids:
            dataset = known.get(dataset_id)
            if dataset is None:
                raise ValueError(f"{path.name}: roles.{role}: no dataset file {dataset_id}.toml")
            kinds = _ROLE_KINDS.get(role)
            wrong = dataset.kind not in kinds if kinds else dataset.kind in ("assessment", "recorded_sale", "hpi")
            if wrong:
                raise ValueError(f"{path.name}: roles.{role}: {dataset_id} is a {dataset.kind} dataset")
        by_role[role] = tuple(ids)
    if by_role["roll"] and not text["roll_publisher"]:
        raise ValueError(f"{path.name}: roll_publisher: required when the market has a roll")
    return Market(**text, **by_role)


@lru_cache(maxsize=1)
def markets() -> dict[str, Market]:
    """The shipped markets (read once per process)."""
    return load_markets()


def market_of(dataset_id: str) -> Market | None:
    """The market a roll, sales or list dataset belongs to (None for a price index or an unknown id)."""
    for market in markets().values():
        if dataset_id in market.roll or dataset_id in market.sales or dataset_id in market.lists:
            return market
    return None
