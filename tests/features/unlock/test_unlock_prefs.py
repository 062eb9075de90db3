"""The unlock confirmation preference: on at 120 by default (existing users too),
changed only to a bool and one of the offered thresholds."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import text

from marketplace.platform.errors import UserError
from marketplace.features.unlock.rules_confirm import ConfirmPreference
from marketplace.platform.db import get_engine
from marketplace.features.unlock import service_prefs as unlock_prefs


def test_new_users_are_asked_from_120_credits(db_url, new_user):
    assert unlock_prefs.get_preference(new_user().id) == ConfirmPreference(enabled=True, threshold=120)


def test_a_profile_written_without_the_columns_gets_the_server_defaults(db_url, new_user):
    user = new_user()
    # What migration 0008 gives existing rows: the database's own defaults.
    with get_engine(db_url).begin() as conn:
        row = conn.execute(text("SELECT unlock_confirm_enabled, unlock_confirm_threshold FROM profiles "
                                "WHERE user_id = :u"), {"u": user.id.hex if db_url.startswith("sqlite") else user.id})
        assert [tuple(r) for r in row] == [(True, 120)]


@pytest.mark.parametrize(("enabled", "threshold"), [(True, 60), (False, 150), (True, "150"), (False, 120)])
def test_choices_are_stored(db_url, new_user, enabled, threshold):
    user = new_user()
    saved = unlock_prefs.set_preference(user.id, enabled, threshold)
    assert saved == ConfirmPreference(enabled=enabled, threshold=int(threshold))
    assert unlock_prefs.get_preference(user.id) == saved


@pytest.mark.parametrize(("enabled", "threshold"), [
    (True, 100), (True, 0), (True, -150), (True, "abc"), (True, None), (True, 150.0), (True, True),
    ("yes", 120), (1, 120), (None, 120), (True, "1e3"), (True, ["120"]),
])
def test_anything_else_is_refused_and_nothing_changes(db_url, new_user, enabled, threshold):
    user = new_user()
    unlock_prefs.set_preference(user.id, True, 60)
    with pytest.raises(UserError) as err:
        unlock_prefs.set_preference(user.id, enabled, threshold)
    assert (err.value.title, err.value.message) == ("Invalid Setting", "Choose one of the offered thresholds.")
    assert unlock_prefs.get_preference(user.id) == ConfirmPreference(enabled=True, threshold=60)


def test_dont_ask_again_keeps_the_threshold(db_url, new_user):
    user = new_user()
    unlock_prefs.set_preference(user.id, True, 150)
    assert unlock_prefs.stop_asking(user.id) == ConfirmPreference(enabled=False, threshold=150)
    assert unlock_prefs.get_preference(user.id).enabled is False


def test_unknown_user(db_url):
    assert unlock_prefs.get_preference(uuid.uuid4()) == ConfirmPreference()
    with pytest.raises(UserError):
        unlock_prefs.set_preference(uuid.uuid4(), True, 120)
