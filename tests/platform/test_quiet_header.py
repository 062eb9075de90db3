"""Every handler re-checks the session and re-reads the header's data (``AuthState``): a value that did not
change is not sent again, nor is what is computed from it. On the marketplace a visitor's page load sent
the 24 cards three times (the load, the header's check, the countdown's first tick); a signed-in
member's balance, re-read unchanged, re-sent them too. On real tabs of the app's states."""

from __future__ import annotations

from marketplace.features.marketplace.service import rebuild_facets_now
from marketplace.features.marketplace.state import MarketplaceState
from marketplace.platform.ui.state_auth import QUIET_VARS, AuthState
from tests import aio
from tests.factories import add_lead
from tests.platform.tabs import open_tab, run


def _sent(tab) -> dict:
    """What the tab's next delta carries, by state, then forgets it (as Reflex does once it is sent)."""
    root = tab._get_root_state()
    delta = aio.run(root._get_resolved_delta())
    root._clean()
    return delta


def _marketplace_vars(delta: dict) -> set[str]:
    return {name.removesuffix("_rx_state_") for key, values in delta.items()
            if key.endswith(MarketplaceState.get_name()) for name in values}


def test_the_headers_vars_are_the_plain_ones_not_the_browsers_storage():
    assert {"user_id", "credits", "subscribed", "leads_remaining", "first_name"} <= QUIET_VARS
    assert not {"access_token", "refresh_token", "access_expires_at", "device_id", "time_zone"} & QUIET_VARS
    assert QUIET_VARS <= set(AuthState.base_vars)


def test_a_visitors_countdown_tick_after_the_load_sends_no_cards_again(db_url):
    for n in range(3):
        add_lead(address=f"{n} Quiet St")
    rebuild_facets_now()
    tab = open_tab(MarketplaceState, path="/marketplace")
    run(tab.load())
    assert "cards" in _marketplace_vars(_sent(tab))
    assert len(tab.cards) == 3
    run(tab.tick())  # the hidden countdown's first change, on mount: the session re-checked (none)
    assert "cards" not in _marketplace_vars(_sent(tab))


def test_a_members_unchanged_balance_sends_no_cards_and_a_changed_one_does(db_url, new_user):
    user = new_user(credits=500)
    add_lead(address="1 Quiet St")
    rebuild_facets_now()
    tab = open_tab(MarketplaceState, user.id, credits=500, path="/marketplace")
    run(tab.load())
    _sent(tab)
    tab.credits = 500  # re-read, unchanged
    tab.user_id = str(user.id)
    unchanged = _sent(tab)
    assert "cards" not in _marketplace_vars(unchanged)
    assert not any("credits_rx_state_" in values or "user_id_rx_state_" in values for values in unchanged.values())
    tab.credits = 20  # spent elsewhere: the cards' buttons follow the balance
    assert "cards" in _marketplace_vars(_sent(tab))
