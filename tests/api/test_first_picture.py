"""/marketplace announces its first card's picture (issue 26 #2): the Link header names the picture
the first card of the default page shows, with the card's own srcset and sizes."""

from __future__ import annotations

from marketplace.api import first_picture
from marketplace.core import marketplace as rules
from marketplace.core.images import CARD_PICTURE_SIZES
from marketplace.core.lead_cards import card_data
from marketplace.services import seeding
from marketplace.services.marketplace import query_page
from marketplace.sources.builtin import BuiltinSource
from marketplace.core.criteria import SearchCriteria


def test_the_header_names_the_first_cards_picture_with_its_srcset(db_url):
    seeding.insert_leads(BuiltinSource(seed=5).search(SearchCriteria(count=30)))
    first = card_data(query_page(rules.Filters.from_query(""), None, db_url).cards[0])
    assert first["primary_image"] and first["primary_srcset"]
    link = first_picture.first_picture_link(db_url)
    assert link == (f'<{first["primary_image"]}>; rel=preload; as=image; fetchpriority=high; '
                    f'imagesrcset="{first["primary_srcset"]}"; imagesizes="{CARD_PICTURE_SIZES}"')


def test_no_header_without_leads(db_url):
    assert first_picture.first_picture_link(db_url) is None


def test_a_picture_without_srcset_is_announced_alone():
    assert first_picture.preload_header("/a.jpg", "") == "</a.jpg>; rel=preload; as=image; fetchpriority=high"
    assert first_picture.preload_header("", "") is None
