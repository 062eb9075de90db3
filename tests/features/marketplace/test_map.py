"""The map's points and marker card on SQLite and PostgreSQL: every matching lead,
locked ones at their ZIP centre only, unlocked ones at their own coordinates."""

import uuid

from marketplace.features.marketplace import rules_map as lead_map
from marketplace.features.marketplace import rules
from marketplace.features.marketplace import service_map as svc
from marketplace.features.marketplace.service import rebuild_facets_now
from marketplace.features.unlock.service import unlock_lead
from tests.factories import add_lead, make_user


def _placed(points) -> dict[str, tuple[float, float]]:
    return {lead_map.lead_id_from_token(t): (points.coords[2 * i], points.coords[2 * i + 1])
            for i, t in enumerate(points.ids)}


def test_points_for_visitors_and_users(db_url):
    own = dict(zip_code="78704", latitude=30.2512345, longitude=-97.7598765)
    probate = [add_lead(lead_type="Probate", **own) for _ in range(30)]
    auction = add_lead(lead_type="Auction", zip_code="78701", latitude=30.27, longitude=-97.74, credit_cost=30)
    unknown_zip = add_lead(lead_type="Probate", zip_code="00000", latitude=40.1, longitude=-75.1)
    add_lead(lead_type="Probate", is_active=False, **own)  # archived: never on the map
    user = make_user(credits=1000)

    visitor = svc.map_points(rules.Filters(page=3, page_size=20))  # the page does not matter
    centre = lead_map.zip_centre("78704")
    assert visitor.matched == 32 and visitor.unplaced == 1 and not visitor.capped
    assert _placed(visitor) == {**{str(i): centre for i in probate}, str(auction): lead_map.zip_centre("78701")}
    assert visitor.open == []
    assert 30.2512345 not in visitor.coords and 30.25123 not in visitor.coords

    unlock_lead(user.id, str(probate[0]))
    unlock_lead(user.id, str(unknown_zip))
    mine = svc.map_points(rules.Filters(), user.id)
    placed = _placed(mine)
    assert mine.matched == 32 and mine.unplaced == 0
    assert placed[str(probate[0])] == (30.25123, -97.75988)
    assert placed[str(unknown_zip)] == (40.1, -75.1)
    assert all(placed[str(i)] == centre for i in probate[1:])
    assert sorted(mine.ids[i] for i in mine.open) == sorted(
        lead_map.lead_token(i) for i in (probate[0], unknown_zip))
    # Another user sees none of this user's unlocks.
    other = svc.map_points(rules.Filters(), make_user().id)
    assert _placed(other)[str(probate[0])] == centre and other.open == []

    # Filters apply as in the grid, including the user's Unlocked tag.
    assert list(_placed(svc.map_points(rules.Filters(lead_types=("Auction",)), user.id))) == [str(auction)]
    tagged = svc.map_points(rules.Filters(tags=("unlocked",)), user.id)
    assert set(_placed(tagged)) == {str(probate[0]), str(unknown_zip)}
    assert svc.map_points(rules.Filters(tags=("unlocked",))).ids == []


def test_points_are_capped_in_the_sort_order(db_url):
    ids = [add_lead(roi=float(r), zip_code="78704") for r in range(1, 8)]
    rebuild_facets_now()  # the count past the cap comes from the facets, as the grid's does
    points = svc.map_points(rules.Filters(), limit=5)
    assert points.capped and points.matched == 7 and len(points.ids) == 5
    # Highest ROI first (the default sort): the five best are shown.
    assert set(_placed(points)) == {str(i) for i in ids[2:]}


def test_marker_card_is_the_grid_card(db_url):
    lead_id = add_lead(address="4821 Sycamore Hollow Dr", credit_cost=30, roi=22.5)
    gone = add_lead(is_active=False)
    user = make_user(credits=100)
    card = svc.map_card(str(lead_id))
    assert card.address == "•••• •••• •••• Dr" and not card.unlocked and card.credit_cost == 30
    assert svc.map_card(str(lead_id), user.id).address == "•••• •••• •••• Dr"
    unlock_lead(user.id, str(lead_id))
    card = svc.map_card(str(lead_id), user.id)
    assert card.address == "4821 Sycamore Hollow Dr" and card.unlocked and card.roi == 22.5
    assert svc.map_card(str(gone), user.id) is None
    assert svc.map_card(str(uuid.uuid4())) is None
    assert svc.map_card("not-a-uuid") is None


def test_points_follow_the_location_and_price_filters(db_url):
    austin = add_lead(state="TX", city="Austin", zip_code="78704", asking_price=150000)
    no_price = add_lead(state="TX", city="austin", zip_code="78704", asking_price=None)
    add_lead(state="TX", city="Austin", zip_code="78701", asking_price=400000)
    dallas = add_lead(state="TX", city="Dallas", zip_code="75201", asking_price=120000)
    add_lead(state="CA", city="Fresno", zip_code="93650", asking_price=100000)
    rebuild_facets_now()
    texas_under = rules.Filters(states=("TX",), max_price=200000)
    assert set(_placed(svc.map_points(texas_under))) == {str(austin), str(dallas)}
    assert set(_placed(svc.map_points(texas_under))) == {str(austin), str(dallas)}  # no asking price: not shown
    assert set(_placed(svc.map_points(rules.Filters(cities=("AUSTIN",), zips=("78704",))))) == {
        str(austin), str(no_price)}
    capped = svc.map_points(texas_under, limit=1)
    assert capped.capped and capped.matched == 2
