"""When an unlock asks "are you sure?" first: a credit unlock whose cost
is at or above the user's threshold, unless the user switched the question off.

The question is a UX guard against an expensive accidental click, not a
security boundary: the server re-checks it on every click, but an event that
skips the dialog still only performs a normal unlock (credits, ownership and
balance are checked by ``unlock.service`` as always).
"""

from __future__ import annotations

from dataclasses import dataclass

from marketplace.platform.errors import UserError
from marketplace.platform.texts import UNLOCK_CONFIRM_BAD_SETTING

THRESHOLD_CHOICES = (60, 120, 150)  # credits; the Settings tab offers exactly these
DEFAULT_THRESHOLD = 120
DEFAULT_ENABLED = True


@dataclass(frozen=True)
class ConfirmPreference:
    enabled: bool = DEFAULT_ENABLED
    threshold: int = DEFAULT_THRESHOLD


def clean_preference(enabled: object, threshold: object) -> ConfirmPreference:
    """The preference to store; ``UserError`` for anything but a real bool and one of
    ``THRESHOLD_CHOICES`` (strings such as '120' from a select are accepted)."""
    if isinstance(threshold, str) and threshold.isdigit() and len(threshold) <= 4:
        threshold = int(threshold)
    if not isinstance(enabled, bool) or isinstance(threshold, bool) or not isinstance(threshold, int) \
            or threshold not in THRESHOLD_CHOICES:
        raise UserError(*UNLOCK_CONFIRM_BAD_SETTING)
    return ConfirmPreference(enabled=enabled, threshold=threshold)


def needs_confirmation(preference: ConfirmPreference, purchase_type: str, credits: int) -> bool:
    """Ask first: the unlock spends credits (not a subscription lead), and that many
    reach the user's threshold, and the user has not switched the question off."""
    return preference.enabled and purchase_type == "credits" and credits >= preference.threshold
