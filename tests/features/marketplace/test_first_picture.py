"""/marketplace's first picture (issue 26 #2): the Link header names the picture the first card of
the default page shows, with the card's own srcset and sizes, and the loading skeleton's
``/api/images/first-card-{width}.jpg`` leads to that same file. A property page's shell shows
``/api/images/property-picture``: the lead's own drawing (issue 41)."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from marketplace.features.marketplace import api_first_picture as first_picture
from tests import aio
from marketplace.api import create_api
from marketplace.platform.web.ratelimit import Limiter
from marketplace.features.marketplace import rules
from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.platform.web.image_hosts import CARD_PICTURE_SIZES, PLACEHOLDER_SVG, first_card_srcset
from marketplace.features.marketplace.rules_cards import card_data
from marketplace.features.scrape import service_seeding as seeding
from marketplace.features.marketplace.service import query_page
from marketplace.features.scrape.source_builtin import BuiltinSource
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead


@pytest.fixture
def client(db_url):
    first_picture._cached.clear()  # lookups of this test's database
    with TestClient(create_api()) as client:
        yield client
    first_picture._cached.clear()


def first_card(db_url) -> dict:
    seeding.insert_leads(BuiltinSource(seed=5).search(SearchCriteria(count=30)))
    return card_data(query_page(rules.Filters.from_query(""), None, db_url).cards[0])


def test_the_header_names_the_first_cards_picture_with_its_srcset(db_url):
    first = first_card(db_url)
    assert first["primary_image"] and first["primary_srcset"]
    assert first_picture.first_picture(db_url) == (first["primary_image"], first["primary_srcset"])
    assert first_picture.preload_header(*first_picture.first_picture(db_url)) == (
        f'<{first["primary_image"]}>; rel=preload; as=image; fetchpriority=high; '
        f'imagesrcset="{first["primary_srcset"]}"; imagesizes="{CARD_PICTURE_SIZES}"')


def test_the_page_header_is_the_default_pages_first_picture(client, db_url):
    first = first_card(db_url)
    assert aio.run(first_picture.marketplace_link()) == first_picture.preload_header(
        first["primary_image"], first["primary_srcset"])


def test_no_header_without_leads(db_url):
    assert first_picture.first_picture(db_url) is None


def test_a_picture_without_srcset_is_announced_alone():
    assert first_picture.preload_header("/a.jpg", "") == "</a.jpg>; rel=preload; as=image; fetchpriority=high"
    assert first_picture.preload_header("", "") is None


def test_the_skeletons_picture_leads_to_the_first_cards_jpeg_of_each_width(client, db_url):
    first = first_card(db_url)
    src, srcset = first_card_srcset()
    assert src == "/api/images/first-card-400.jpg"
    assert srcset == "/api/images/first-card-400.jpg 400w, /api/images/first-card-800.jpg 800w"
    for width in (400, 800):
        res = client.get(f"/api/images/first-card-{width}.jpg", follow_redirects=False)
        assert res.status_code == 302
        assert res.headers["location"] == first["primary_image"].replace("-400.jpg", f"-{width}.jpg")
        assert f'{res.headers["location"]} {width}w' in first["primary_srcset"]
        assert res.headers["cache-control"] == "no-store"  # the first card changes with the leads
    assert client.head("/api/images/first-card-800.jpg", follow_redirects=False).status_code == 302


def test_a_filtered_page_shows_its_own_first_cards_picture(client, db_url):
    first = first_card(db_url)
    query = rules.Filters(lead_types=("Probate",), sort="roi_desc").to_query()
    probate = card_data(query_page(rules.Filters.from_query(query), None, db_url).cards[0])
    assert probate["lead_type"] == "Probate" and probate["id"] != first["id"]
    res = client.get("/api/images/first-card-400.jpg", follow_redirects=False,
                     headers={"referer": f"http://testserver/marketplace?{query}"})
    assert res.headers["location"] == probate["primary_image"]
    # Another page's address, or none, stands for the default filters.
    for referer in (f"http://testserver/pricing?{query}", "not a url"):
        res = client.get("/api/images/first-card-400.jpg", follow_redirects=False, headers={"referer": referer})
        assert res.headers["location"] == first["primary_image"]
    assert first_picture.page_query("http://x/marketplace/?page=2") == "page=2"


def test_a_flood_of_made_up_addresses_gets_the_placeholder_not_a_query_each(client, db_url, monkeypatch):
    first_card(db_url)
    probate = card_data(query_page(rules.Filters(lead_types=("Probate",)), None, db_url).cards[0])
    monkeypatch.setattr(first_picture, "_lookups", Limiter("first-card-test", per_minute=3))
    aio.run(first_picture._lookups.reset())
    lookups = []
    real = first_picture.first_picture
    monkeypatch.setattr(first_picture, "first_picture", lambda url=None, query="": lookups.append(query) or
                        real(url, query))
    answers = [client.get("/api/images/first-card-400.jpg", follow_redirects=False, headers={
        "referer": f"http://testserver/marketplace?type=Probate&page={n}"}) for n in range(1, 7)]
    # Three lookups a minute for this client; then the placeholder (never another page's lead), no query.
    assert lookups == ["type=Probate&page=1", "type=Probate&page=2", "type=Probate&page=3"]
    assert answers[0].status_code == 302 and answers[0].headers["location"] == probate["primary_image"]
    assert [(a.status_code, a.text) for a in answers[3:]] == [(200, PLACEHOLDER_SVG)] * 3
    # A cached query is no lookup and is not refused; the default page is never counted.
    again = client.get("/api/images/first-card-400.jpg", follow_redirects=False,
                       headers={"referer": "http://testserver/marketplace?type=Probate&page=1"})
    assert again.headers["location"] == probate["primary_image"]
    assert client.get("/api/images/first-card-400.jpg", follow_redirects=False).status_code == 302
    assert lookups == ["type=Probate&page=1", "type=Probate&page=2", "type=Probate&page=3", ""]


def test_without_leads_the_skeleton_shows_the_placeholder_drawing(client):
    res = client.get("/api/images/first-card-400.jpg", follow_redirects=False)
    assert res.status_code == 200
    assert res.headers["content-type"] == "image/svg+xml"
    assert res.text == PLACEHOLDER_SVG
    assert res.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("path", ["/api/images/first-card-401.jpg", "/api/images/first-card-..%2F.jpg",
                                  "/api/images/first-card-4000.jpg"])
def test_other_widths_are_not_found(client, path):
    res = client.get(path, follow_redirects=False)
    assert res.status_code == 404


# ------------------------------------------------------------------ a property page's shell (issue 41)

def _leads(db_url) -> list[dict]:
    seeding.insert_leads(BuiltinSource(seed=5).search(SearchCriteria(count=6)))
    return [card_data(card) for card in query_page(rules.Filters(), None, db_url).cards]


def _shell_picture(client, lead_id: str):
    return client.get("/api/images/property-picture", follow_redirects=False,
                      headers={"referer": f"http://testserver/property/{lead_id}"})


def _set_lead(db_url, lead_id: str, **values) -> None:
    with get_engine(db_url).begin() as conn:
        conn.execute(sa.update(Lead.__table__).where(Lead.__table__.c.id == uuid.UUID(lead_id)).values(**values))
    first_picture._cached.clear()


def test_a_property_pages_shell_shows_that_leads_own_drawing(client, db_url):
    leads = _leads(db_url)
    for lead in leads[:3]:
        assert lead["illustration"]
        res = _shell_picture(client, lead["id"])
        assert res.status_code == 302 and res.headers["cache-control"] == "no-store"
        with get_engine(db_url).connect() as conn:
            drawing = conn.execute(sa.select(Lead.__table__.c.primary_image_url)
                                   .where(Lead.__table__.c.id == uuid.UUID(lead["id"]))).scalar_one()
        assert res.headers["location"] == drawing == lead["images"][0]
        assert drawing.startswith("/api/images/house/") and drawing.endswith(".svg")
    assert client.head("/api/images/property-picture", follow_redirects=False,
                       headers={"referer": f"http://testserver/property/{leads[0]['id']}"}).status_code == 302


def test_a_property_shell_never_shows_a_photo_an_archived_lead_or_another_pages_lead(client, db_url):
    leads = _leads(db_url)
    # A lead with a photo: the shell's note ('Illustration, not a photo...') would be wrong over it.
    _set_lead(db_url, leads[0]["id"], primary_image_url="https://photos.zillowstatic.com/fp/a.jpg",
              image_urls=["https://photos.zillowstatic.com/fp/a.jpg"])
    # An archived lead is not listed: its picture is never looked up.
    _set_lead(db_url, leads[1]["id"], is_active=False)
    placeholder = [(200, PLACEHOLDER_SVG)]
    for lead_id in (leads[0]["id"], leads[1]["id"], str(uuid.uuid4()), "not-a-lead", "../marketplace"):
        res = _shell_picture(client, lead_id)
        assert [(res.status_code, res.text)] == placeholder, lead_id
        assert res.headers["content-type"] == "image/svg+xml"
    for referer in (None, f"http://testserver/marketplace?id={leads[2]['id']}", "not a url"):
        res = client.get("/api/images/property-picture", follow_redirects=False,
                         headers={"referer": referer} if referer else {})
        assert [(res.status_code, res.text)] == placeholder
    assert first_picture.page_lead(f"http://x/property/{leads[2]['id']}/") == leads[2]["id"]


def test_a_flood_of_made_up_property_addresses_gets_the_placeholder_not_a_query_each(client, db_url, monkeypatch):
    leads = _leads(db_url)
    monkeypatch.setattr(first_picture, "_lookups", Limiter("property-picture-test", per_minute=2))
    aio.run(first_picture._lookups.reset())
    lookups = []
    real = first_picture.property_picture
    monkeypatch.setattr(first_picture, "property_picture", lambda lead_id, url=None: lookups.append(lead_id) or
                        real(lead_id, url))
    made_up = [str(uuid.uuid4()) for _ in range(3)]
    answers = [_shell_picture(client, lead_id) for lead_id in [made_up[0], leads[0]["id"], made_up[1], made_up[2]]]
    assert lookups == [made_up[0], leads[0]["id"]]
    assert answers[1].status_code == 302
    assert [(a.status_code, a.text) for a in answers[2:]] == [(200, PLACEHOLDER_SVG)] * 2
    # A lead looked up within the last ten seconds is no lookup and is not refused.
    assert _shell_picture(client, leads[0]["id"]).headers["location"] == leads[0]["images"][0]
    assert lookups == [made_up[0], leads[0]["id"]]
