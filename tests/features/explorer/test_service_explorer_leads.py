"""The explorer's leads table and export on a real database (SQLite and PostgreSQL)."""

from __future__ import annotations

import csv
import io
import time
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from marketplace.features.explorer import api_export as explorer_export
from marketplace.api import create_api
from marketplace.features.explorer import rules
from marketplace.platform.times import format_date
from marketplace.platform.db import session_scope
from marketplace.platform.models import BulkScrape, Lead, SuperAdmin, utcnow
from marketplace.features.dashboard import service as dashboard
from marketplace.platform import downloads
from marketplace.features.explorer import service_leads as explorer_leads

BASE = utcnow().replace(microsecond=0) - timedelta(days=1)

# (city, state, zip, roi, price, zestimate, sqft, active)
SPECS = [
    ("Austin", "TX", "78701", 25.0, 300_000, 400_000, 1500, True),
    ("Austin", "TX", "78702", None, 200_000, None, 1200, True),
    ("Dallas", "TX", "75201", 12.5, 250_000, 310_000, None, False),
    ("Phoenix", "AZ", "85001", 31.0, None, 500_000, 2100, True),
    ("austin", "MN", "55912", 18.0, 150_000, 190_000, 900, False),
    ("Denver", "CO", "80202", 9.0, 450_000, 600_000, 2500, True),
    ("Austin", "TX", "78799", 40.0, 500_000, 700_000, 3000, False),
    ("Miami", "FL", "33101-1234", 22.0, 350_000, 420_000, 1800, True),
]


def _lead(n: int, spec, **kw) -> Lead:
    city, state, zip_code, roi, price, zest, sqft, active = spec
    return Lead(address=f"{100 + n} Main St", city=city, state=state, zip_code=zip_code, lead_type="Probate",
                source="test", roi=roi, asking_price=price, zestimate=zest, square_footage=sqft, is_active=active,
                confidence_score=80, credit_cost=120, created_at=BASE + timedelta(minutes=n), **kw)


@pytest.fixture
def leads(db_url, new_user):
    """Eight marketplace leads (created one minute apart) plus one private bulk-scrape lead."""
    owner = new_user()
    with session_scope() as s:
        rows = [_lead(n, spec) for n, spec in enumerate(SPECS)]
        scrape = BulkScrape(user_id=owner.id, lead_count=1, leads_generated=1, output=[])
        s.add(scrape)
        s.flush()
        rows.append(_lead(99, SPECS[0], scrape_id=scrape.id))  # the newest, but private
        s.add_all(rows)
    return {r.id: r for r in rows[:-1]}


def _ids(page):
    return [row["zip"] for row in page.rows]


def test_newest_first_counts_and_paging(leads):
    view = rules.LeadView.of()
    first = explorer_leads.page(view, 1, 25)
    assert (first.total, first.active, first.archived, first.pages) == (8, 5, 3, 1)
    assert _ids(first) == [s[2] for s in reversed(SPECS)]  # the private scrape lead is not listed
    row = first.rows[0]
    assert row["address"] == "107 Main St" and row["status"] == "Active" and row["price"] == "$350,000"
    assert (row["roi"], row["confidence"], row["cost"], row["created"]) == (
        "22.0%", "80", "120", format_date(BASE, "UTC"))
    # The platform overview counts the same marketplace leads.
    with session_scope() as s:
        overview = dashboard.platform_overview(s)
    assert (overview.leads, overview.active_leads) == (8, 5)


def test_pages_are_clamped_and_sliced(leads, monkeypatch):
    monkeypatch.setattr(rules, "PAGE_SIZES", (3, 25, 50, 100))
    view = rules.LeadView.of()
    pages = [explorer_leads.page(view, n, 3) for n in (1, 2, 3)]
    assert [p.pages for p in pages] == [3, 3, 3]
    assert sum((_ids(p) for p in pages), []) == [s[2] for s in reversed(SPECS)]
    assert explorer_leads.page(view, 99, 3).page == 3
    assert _ids(explorer_leads.page(view, 99, 3)) == _ids(pages[2])


@pytest.mark.parametrize("sort, expected", [
    ("roi_desc", ["78799", "85001", "78701", "33101-1234", "55912", "75201", "80202", "78702"]),
    ("price_asc", ["55912", "78702", "75201", "78701", "33101-1234", "80202", "78799", "85001"]),
    ("zestimate_desc", ["78799", "80202", "85001", "33101-1234", "78701", "75201", "55912", "78702"]),
    ("sqft_asc", ["55912", "78702", "78701", "33101-1234", "85001", "80202", "78799", "75201"]),
])
def test_sorts_put_missing_values_last(leads, sort, expected):
    assert _ids(explorer_leads.page(rules.LeadView.of(sort=sort), 1, 25)) == expected


@pytest.mark.parametrize("query, status, expected, counts", [
    ("Austin", "all", ["78799", "55912", "78702", "78701"], (2, 2)),  # case-insensitive, any state
    ("austin, tx", "all", ["78799", "78702", "78701"], (2, 1)),
    ("TX", "active", ["78702", "78701"], (2, 2)),
    ("787", "all", ["78799", "78702", "78701"], (2, 1)),
    ("78701", "all", ["78701"], (1, 0)),
    ("Austin TX 7879", "archived", ["78799"], (0, 1)),
    ("33101", "all", ["33101-1234"], (1, 0)),
    ("33101-12", "all", ["33101-1234"], (1, 0)),
    ("Dallas", "active", [], (0, 1)),
    ("Nowhere", "all", [], (0, 0)),
])
def test_search_and_status_filter(leads, query, status, expected, counts):
    page = explorer_leads.page(rules.LeadView.of(query, status), 1, 25)
    assert _ids(page) == expected
    assert (page.active, page.archived) == counts
    assert page.total == len(expected)
    assert explorer_leads.has_leads(rules.LeadView.of(query, status)) == bool(expected)


def test_export_iterator_streams_every_row_of_the_view_in_order(leads):
    for view in (rules.LeadView.of(), rules.LeadView.of("TX", "all", "roi_desc"), rules.LeadView.of(status="archived")):
        batches = list(explorer_leads.iter_leads(view, batch=3))
        assert all(len(b) <= 3 for b in batches)
        streamed = [lead["zip_code"] for b in batches for lead in b]
        assert streamed == _ids(explorer_leads.page(view, 1, 100))


@pytest.fixture
def client(db_url):
    with TestClient(create_api()) as c:
        yield c


def _csv(res) -> list[list[str]]:
    return list(csv.reader(io.StringIO(res.content.decode("utf-8-sig"))))


def test_export_route_streams_the_view_for_a_super_admin_only(leads, client, new_user):
    admin, plain = new_user(), new_user()
    with session_scope() as s:
        s.add(SuperAdmin(user_id=admin.id))
    view = rules.LeadView.of("tx", "all", "price_asc")
    res = client.get(explorer_export.export_url(admin.id, view))
    assert res.status_code == 200
    assert res.headers["content-disposition"] == f'attachment; filename="leads-export-{utcnow():%Y-%m-%d}.csv"'
    rows = _csv(res)
    assert rows[0] == list(rules.CSV_COLUMNS) and len(rows[0]) == 23
    assert [r[6] for r in rows[1:]] == ["78702", "75201", "78701", "78799"]
    assert {len(r) for r in rows} == {23}
    assert all(r[22] for r in rows[1:])  # every row says where its data comes from
    assert rows[1][2] == "Active" and rows[2][2] == "Archived"

    params = {"q": view.query, "status": view.status, "sort": view.sort}
    for token in ("", "forged.123.abc", explorer_export.export_token(plain.id, view),
                  downloads.make_token(explorer_export.PURPOSE, admin.id, view.params(), now=time.time() - 3600),
                  explorer_export.export_token(admin.id, rules.LeadView.of("AZ"))):
        res = client.get("/api/explorer/leads.csv", params={**params, "token": token})
        assert res.status_code == 403 and "Main St" not in res.text
    # Rights are re-checked when the download starts: a revoked admin's link stops working.
    url = explorer_export.export_url(admin.id, view)
    with session_scope() as s:
        s.delete(s.get(SuperAdmin, admin.id))
    assert client.get(url).status_code == 403


def test_csv_cells_are_neutralised(db_url, client, new_user):
    admin = new_user()
    with session_scope() as s:
        s.add(SuperAdmin(user_id=admin.id))
        s.add(Lead(address="=HYPERLINK(\"http://x\")", city="@Evil", state="TX", zip_code="78701",
                   lead_type="+Probate", source="-test"))
    rows = _csv(client.get(explorer_export.export_url(admin.id, rules.LeadView.of())))
    assert rows[1][3:9] == ["'=HYPERLINK(\"http://x\")", "'@Evil", "TX", "78701", "'+Probate", "'-test"]


def test_known_counts_skip_the_count_but_not_the_rows(leads):
    view = rules.LeadView.of("TX", "archived")
    fresh = explorer_leads.page(view, 1, 25)
    reused = explorer_leads.page(view, 1, 25, known_counts=(fresh.active, fresh.archived))
    assert (reused.rows, reused.total, reused.active, reused.archived) == (fresh.rows, 2, 2, 2)
