"""The map's placement rules: ZIP centres, what a locked lead may show, the payload."""

import math
import uuid

import pytest

from marketplace.features.marketplace import rules_map as lead_map
from marketplace.platform.config import map_tiles


def test_zip_centre_from_the_package_data_rounded():
    assert lead_map.zip_centre("78704") == (30.243, -97.766)  # zipcodes: 30.2428, -97.7658
    assert lead_map.zip_centre("78704-1234") == (30.243, -97.766)
    assert lead_map.zip_centre(" 78704 ") == (30.243, -97.766)


@pytest.mark.parametrize("zip_code", ["", None, "00000", "1234", "abcde", "7870x", "99999"])
def test_unknown_or_malformed_zip_has_no_centre(zip_code):
    assert lead_map.zip_centre(zip_code) is None


def test_locked_lead_is_placed_at_its_zip_centre_never_its_own_coordinates():
    assert lead_map.map_position("78704", 30.25123456, -97.75987654, unlocked=False) == (30.243, -97.766)
    # Locked with an unknown ZIP: not on the map, even with coordinates.
    assert lead_map.map_position("00000", 30.25123456, -97.75987654, unlocked=False) is None


def test_unlocked_lead_is_placed_at_its_own_coordinates():
    assert lead_map.map_position("78704", 30.25123456, -97.75987654, unlocked=True) == (30.25123, -97.75988)
    assert lead_map.map_position("00000", 30.25123456, -97.75987654, unlocked=True) == (30.25123, -97.75988)
    # Without usable coordinates: its ZIP centre, or nowhere.
    for lat, lng in [(None, None), (0.0, 0.0), (91.0, 10.0), (10.0, 181.0), (math.nan, 1.0), (True, 1.0)]:
        assert lead_map.map_position("78704", lat, lng, unlocked=True) == (30.243, -97.766)
        assert lead_map.map_position("", lat, lng, unlocked=True) is None


def test_tokens_round_trip_and_refuse_junk():
    lead_id = uuid.uuid4()
    token = lead_map.lead_token(lead_id)
    assert len(token) == 22 and lead_map.lead_token(str(lead_id)) == token
    assert lead_map.lead_id_from_token(token) == str(lead_id)
    for junk in [None, 5, "", "x" * 22, token + "A", token[:-1], "!" * 22, {"a": 1}]:
        assert lead_map.lead_id_from_token(junk) is None


def test_build_points_payload():
    locked, unlocked, nowhere, no_coords = (uuid.uuid4() for _ in range(4))
    points = lead_map.build_points([
        (locked, "78704", None, None, False),
        (unlocked, "78704", 30.2512345, -97.7598765, True),
        (nowhere, "00000", None, None, False),
        (no_coords, "78701", None, None, True),
    ])
    assert points.payload == {
        "ids": [lead_map.lead_token(locked), lead_map.lead_token(unlocked), lead_map.lead_token(no_coords)],
        "coords": [30.243, -97.766, 30.25123, -97.75988, *lead_map.zip_centre("78701")],
        "open": [1, 2],
    }
    assert (points.matched, points.unplaced, points.capped) == (4, 1, False)


def test_view_in_the_query():
    assert lead_map.view_from_query("type=Probate&view=map") == "map"
    assert lead_map.view_from_query({"view": "map"}) == "map"
    assert lead_map.view_from_query({"view": ["map"]}) == "map"
    for query in ["", "view=globe", "view=", {"view": 3}, {"view": []}]:
        assert lead_map.view_from_query(query) == "grid"
    assert lead_map.with_view("type=Probate", "map") == "type=Probate&view=map"
    assert lead_map.with_view("", "map") == "view=map"
    assert lead_map.with_view("type=Probate", "grid") == "type=Probate"
    assert lead_map.with_view("type=Probate", "globe") == "type=Probate"


def test_tile_settings():
    assert map_tiles.tile_url(None) == "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    assert map_tiles.tile_url("") == map_tiles.DEFAULT_TILE_URL
    assert map_tiles.tile_url(" off ") == "" and map_tiles.tile_url("none") == ""
    assert map_tiles.tile_url("https://{s}.tile.example.org/{z}/{x}/{y}.png") == (
        "https://{s}.tile.example.org/{z}/{x}/{y}.png")
    for bad in ["ftp://x/{z}/{x}/{y}", "https://tiles.example.org/{z}/{x}.png", "javascript:alert(1)//{z}{x}{y}"]:
        with pytest.raises(ValueError, match="MAP_TILE_URL"):
            map_tiles.tile_url(bad)
    assert map_tiles.tile_image_source(map_tiles.DEFAULT_TILE_URL) == "https://tile.openstreetmap.org"
    assert map_tiles.tile_image_source("https://{s}.tile.example.org/{z}/{x}/{y}.png") == (
        "https://*.tile.example.org")
    assert map_tiles.tile_image_source("http://localhost:8080/{z}/{x}/{y}.png") == "http://localhost:8080"
    assert map_tiles.tile_image_source("") is None


def test_tile_server_allowed_for_images_only():
    from marketplace.platform.web.http_policy import content_security_policy

    source = map_tiles.tile_image_source(map_tiles.DEFAULT_TILE_URL)
    directives = dict(part.strip().split(" ", 1) for part in content_security_policy([], None, source).split(";"))
    assert source in directives["img-src"].split()
    assert source not in directives["connect-src"] and source not in directives["script-src"]
    assert "tile" not in content_security_policy([], None, None)


def test_map_caption():
    assert lead_map.map_caption(1, 1, 0, False) == "1 lead on the map."
    assert lead_map.map_caption(1234, 1235, 1, False) == (
        "1,234 leads on the map. 1 lead without a known location is not on the map.")
    assert lead_map.map_caption(0, 3, 3, False) == (
        "0 leads on the map. 3 leads without a known location are not on the map.")
    assert lead_map.map_caption(25000, 1000000, 0, True) == (
        "The map shows the first 25,000 of 1,000,000 matching leads; narrow the filters to see the rest.")


def test_single_point_for_the_property_page():
    lead_id = uuid.uuid4()
    assert lead_map.single_point(lead_id, "78704", 30.2512345, -97.7598765) == {
        "ids": [lead_map.lead_token(lead_id)], "coords": [30.25123, -97.75988], "open": [0]}
    assert lead_map.single_point(lead_id, "78704", None, None)["coords"] == [30.243, -97.766]
    assert lead_map.single_point(lead_id, "", None, None) == {"ids": [], "coords": [], "open": []}
