"""Settings > Deal defaults (``features/property/state_deal_defaults.py``), its real handlers on a real tab against the test
database: signed out, to /auth; a field that is not a number is shown under it and in the toast and nothing is
stored; a valid form is stored once and a reload shows it."""

from __future__ import annotations

from marketplace.features.property import service_deals as deals
from marketplace.features.property.state_deal_defaults import DealDefaultsState
from tests.platform.tabs import open_tab, seen, toasts


def test_signed_out_the_form_goes_to_sign_in(db_url):
    tab = open_tab(DealDefaultsState, None, path="/dashboard")
    tab.loaded_for = "someone"
    assert seen(tab.load()) == [("redirect", "/auth")] and tab.loaded_for == ""
    assert seen(tab.save({"vacancy_pct": "7"})) == [("redirect", "/auth")]


def test_a_bad_field_is_refused_and_nothing_is_stored(db_url, new_user):
    user = new_user()
    tab = open_tab(DealDefaultsState, user.id, path="/dashboard")
    seen(tab.load())
    before, built_in = dict(tab.values), deals.load_defaults(user.id)
    assert tab.loaded_for == str(user.id) and before["vacancy_pct"]
    events = seen(tab.save({**before, "vacancy_pct": "lots"}))
    assert toasts(events) == [("error", "Check the deal inputs", "Vacancy must be a number.")]
    assert (tab.errors, tab.values["vacancy_pct"], tab.saving) == ({"vacancy_pct": "Vacancy must be a number."},
                                                                   "lots", False)
    assert deals.load_defaults(user.id) == built_in  # nothing stored


def test_a_valid_form_is_stored_and_shown_after_a_reload(db_url, new_user):
    user = new_user()
    tab = open_tab(DealDefaultsState, user.id, path="/dashboard")
    seen(tab.load())
    key = tab.form_key
    events = seen(tab.save({**tab.values, "vacancy_pct": "7", "holding_months": "9"}))
    assert ("toast", "success", "Defaults Saved", "New deal analyses start from these figures.") in events
    assert (tab.errors, tab.form_key, tab.saving) == ({}, key + 1, False)
    stored = deals.load_defaults(user.id)
    assert (stored.vacancy_pct, stored.holding_months) == (7, 9)
    again = open_tab(DealDefaultsState, user.id, path="/dashboard")
    seen(again.load())
    assert again.values == tab.values and (again.values["vacancy_pct"], again.values["holding_months"]) == ("7", "9")
