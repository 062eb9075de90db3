"""The unlock confirmation preference of a user (``profiles.unlock_confirm_*``):
read it for the marketplace's unlock handler and the Settings tab, and change it
from the Settings section or the dialog's "Don't ask again" box.

Input is validated by ``unlock.rules_confirm.clean_preference``: anything but a
bool and one of the offered thresholds is refused (``UserError``), nothing written.
"""

from __future__ import annotations

import uuid

from marketplace.platform.errors import UserError
from marketplace.features.unlock.rules_confirm import ConfirmPreference, clean_preference
from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.texts import NOT_SIGNED_IN
from marketplace.platform.models import Profile, utcnow


def _preference(profile: Profile) -> ConfirmPreference:
    return ConfirmPreference(enabled=bool(profile.unlock_confirm_enabled),
                             threshold=int(profile.unlock_confirm_threshold))


def get_preference(user_id: uuid.UUID, database_url: str | None = None) -> ConfirmPreference:
    """The user's preference; the defaults (on, 120) when the profile is gone."""
    with read_scope(database_url) as session:
        profile = session.get(Profile, user_id)
        return ConfirmPreference() if profile is None else _preference(profile)


def _store(user_id: uuid.UUID, enabled: bool, threshold: int | None, database_url: str | None) -> ConfirmPreference:
    """Write the switch (and the threshold unless None) in one transaction; the stored result."""
    with session_scope(database_url) as session:
        profile = session.get(Profile, user_id)
        if profile is None:
            raise UserError(*NOT_SIGNED_IN)
        profile.unlock_confirm_enabled = enabled
        if threshold is not None:
            profile.unlock_confirm_threshold = threshold
        profile.updated_at = utcnow()
        session.add(profile)
        return _preference(profile)


def set_preference(user_id: uuid.UUID, enabled: object, threshold: object,
                   database_url: str | None = None) -> ConfirmPreference:
    """Store a validated preference and return it (``UserError`` when refused)."""
    wanted = clean_preference(enabled, threshold)
    return _store(user_id, wanted.enabled, wanted.threshold, database_url)


def stop_asking(user_id: uuid.UUID, database_url: str | None = None) -> ConfirmPreference:
    """"Don't ask again": switch the question off, keeping the chosen threshold."""
    return _store(user_id, False, None, database_url)
