"""The Settings tab's services: names, resend, password change, sessions, account deletion."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from sqlmodel import func, select

from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.models import (
    AuthSession,
    BulkScrape,
    CreditLedger,
    CreditPurchase,
    EmailOutbox,
    HeldProperty,
    LoginAttempt,
    OwnerContact,
    Profile,
    Subscription,
    SuperAdmin,
    User,
    WebhookIdempotencyKey,
    WebhookRequest,
    utcnow,
)
from marketplace.platform.texts import CONFIRM_SUBJECT
from marketplace.features.accounts import service_settings as svc
from marketplace.features.accounts import service as accounts
from marketplace.platform import sessions as auth_sessions, ledger
from marketplace.features.billing import service as purchases
from marketplace.features.scrape import service_webhook_keys as webhook_keys
from tests import factories


def _session(user_id, ua="Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36"):
    with session_scope() as session:
        return auth_sessions.create_session(session, user_id, user_agent=ua, ip_address="203.0.113.7")


def _alive(pair) -> bool:
    with read_scope() as session:
        return auth_sessions.validate_access_token(session, pair.access_token) is not None


def _profile(user_id) -> Profile | None:
    with read_scope() as session:
        return session.get(Profile, user_id)


# --------------------------------------------------------------------------- names


def test_names_are_trimmed_and_saved(db_url, new_user):
    user = new_user()
    names = svc.update_names(user.id, "  Ada ", " Lovelace  ")
    assert (names.first_name, names.last_name) == ("Ada", "Lovelace")
    profile = _profile(user.id)
    assert (profile.first_name, profile.last_name) == ("Ada", "Lovelace")


@pytest.mark.parametrize(("first", "last", "title", "message"), [
    ("", "Lee", "Missing Information", "First name is required."),
    ("Ann", "   ", "Missing Information", "Last name is required."),
    ("A" * 101, "Lee", "Name Too Long", "First name must be at most 100 characters long."),
    ("Ann", "Lee\nDROP", "Invalid Name", "Last name cannot contain line breaks, tabs or other control characters."),
    ("An\u202en", "Lee", "Invalid Name", "First name cannot contain line breaks, tabs or other control characters."),
])
def test_bad_names_are_refused_and_nothing_changes(db_url, new_user, first, last, title, message):
    user = new_user()
    with pytest.raises(svc.SettingsError) as err:
        svc.update_names(user.id, first, last)
    assert (err.value.title, err.value.message) == (title, message)
    profile = _profile(user.id)
    assert (profile.first_name, profile.last_name) == ("Test", "User")


def test_a_hundred_characters_is_allowed(db_url, new_user):
    user = new_user()
    assert svc.update_names(user.id, "B" * 100, "C").first_name == "B" * 100


# --------------------------------------------------------------------------- resend confirmation


def _confirm_mails(email) -> int:
    with read_scope() as session:
        return session.exec(select(func.count()).select_from(EmailOutbox).where(
            EmailOutbox.to_address == email, EmailOutbox.subject == CONFIRM_SUBJECT)).one()


def test_resend_confirmation_once_a_minute(db_url, new_user):
    user = new_user(confirmed=False)
    now = utcnow()
    assert svc.resend_confirmation(user.id, now=now) == user.email
    assert _confirm_mails(user.email) == 1
    with pytest.raises(svc.SettingsError) as err:
        svc.resend_confirmation(user.id, now=now + timedelta(seconds=20))
    assert err.value.title == "Please Wait"
    # the mail's own timestamp is a few milliseconds after ``now``
    assert re.fullmatch(r"A confirmation link was sent less than a minute ago\. "
                        r"You can send another in 4[01] seconds\.", err.value.message)
    assert _confirm_mails(user.email) == 1
    svc.resend_confirmation(user.id, now=now + timedelta(seconds=61))
    assert _confirm_mails(user.email) == 2


def test_resend_refused_for_a_confirmed_address(db_url, new_user):
    user = new_user(confirmed=True)
    with pytest.raises(svc.SettingsError) as err:
        svc.resend_confirmation(user.id)
    assert err.value.title == "Already Confirmed"
    assert _confirm_mails(user.email) == 0


# --------------------------------------------------------------------------- password


def test_password_change_keeps_this_session_and_signs_out_the_others(db_url, new_user):
    user = new_user(password="old-secret", confirmed=True)
    here, other1, other2 = _session(user.id), _session(user.id), _session(user.id)
    stranger = new_user()
    theirs = _session(stranger.id)

    revoked = svc.change_password(user.id, "old-secret", "new-secret", "new-secret",
                                  access_token=here.access_token, refresh_token=here.refresh_token)
    assert revoked == 2
    assert _alive(here) and not _alive(other1) and not _alive(other2)
    assert _alive(theirs)
    user_id, _pair = accounts.sign_in_user(user.email, "new-secret")
    assert user_id == user.id
    with pytest.raises(accounts.AuthError):
        accounts.sign_in_user(user.email, "old-secret")


def test_wrong_current_password_changes_nothing_and_counts_as_a_failed_sign_in(db_url, new_user):
    user = new_user(password="old-secret", confirmed=True)
    here, other = _session(user.id), _session(user.id)
    with read_scope() as session:
        before = session.get(User, user.id).password_hash
    with pytest.raises(svc.SettingsError) as err:
        svc.change_password(user.id, "wrong-one", "new-secret", "new-secret",
                            access_token=here.access_token, ip_address="198.51.100.9")
    assert (err.value.title, err.value.message) == (
        "Password Not Changed", "Your current password is incorrect. Nothing was changed.")
    with read_scope() as session:
        assert session.get(User, user.id).password_hash == before
        failures = session.exec(select(func.count()).select_from(LoginAttempt).where(
            LoginAttempt.email == user.email, LoginAttempt.succeeded == False)).one()  # noqa: E712
    assert failures == 1
    assert _alive(here) and _alive(other)


def test_wrong_current_passwords_are_throttled(db_url, new_user):
    user = new_user(password="old-secret", confirmed=True)
    for _ in range(5):
        with pytest.raises(svc.SettingsError):
            svc.change_password(user.id, "nope-nope", "new-secret", "new-secret", ip_address="198.51.100.10")
    with pytest.raises(svc.SettingsError) as err:
        svc.change_password(user.id, "old-secret", "new-secret", "new-secret", ip_address="198.51.100.10")
    assert err.value.message.startswith("Too many failed attempts. Please wait ")
    accounts.sign_in_user(user.email, "old-secret", ip_address="192.0.2.1")  # unchanged


@pytest.mark.parametrize(("current", "new", "confirm", "title", "message"), [
    ("old-secret", "abcdef", "abcdeg", "Password Mismatch", "Passwords do not match. Please try again."),
    ("old-secret", "abc", "abc", "Password Too Short", "Password must be at least 6 characters long."),
    ("", "abcdef", "abcdef", "Current Password Required", "Enter your current password to set a new one."),
])
def test_new_password_rules_use_the_spec_messages(db_url, new_user, current, new, confirm, title, message):
    user = new_user(password="old-secret", confirmed=True)
    with pytest.raises(svc.SettingsError) as err:
        svc.change_password(user.id, current, new, confirm)
    assert (err.value.title, err.value.message) == (title, message)
    accounts.sign_in_user(user.email, "old-secret")


# --------------------------------------------------------------------------- sessions


def test_session_list_marks_this_device_and_names_the_browser(db_url, new_user):
    user = new_user()
    here = _session(user.id)
    _session(user.id, ua="Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
                         "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1")
    gone = _session(user.id)
    with session_scope() as session:
        auth_sessions.revoke_session(session, gone.access_token)
    rows = svc.list_sessions(user.id, here.access_token, here.refresh_token)
    assert len(rows) == 2
    assert sorted(r.device for r in rows) == ["Chrome on Linux", "Safari on iOS"]
    assert [r.current for r in rows].count(True) == 1
    assert next(r for r in rows if r.current).device == "Chrome on Linux"
    assert all(r.ip_address == "203.0.113.7" for r in rows)


def test_a_user_can_revoke_only_their_own_sessions(db_url, new_user):
    owner, other = new_user(), new_user()
    mine, theirs = _session(owner.id), _session(other.id)
    with read_scope() as session:
        their_id = auth_sessions.session_id_for(session, theirs.access_token)
        my_id = auth_sessions.session_id_for(session, mine.access_token)
    assert svc.revoke_session(owner.id, str(their_id)) == svc.Revoked(False, False)
    assert svc.revoke_session(owner.id, "not-a-uuid") == svc.Revoked(False, False)
    assert svc.revoke_session(owner.id, str(uuid.uuid4())) == svc.Revoked(False, False)
    assert _alive(theirs) and _alive(mine)
    assert svc.revoke_session(owner.id, str(my_id), mine.access_token) == svc.Revoked(True, True)
    assert not _alive(mine) and _alive(theirs)


def test_sign_out_everywhere(db_url, new_user):
    user, other = new_user(), new_user()
    pairs = [_session(user.id) for _ in range(3)]
    theirs = _session(other.id)
    assert svc.revoke_all_sessions(user.id) == 3
    assert not any(_alive(p) for p in pairs)
    assert _alive(theirs)
    assert svc.list_sessions(user.id) == []


# --------------------------------------------------------------------------- deleting the account


def _paid_purchase(user_id) -> uuid.UUID:
    with session_scope() as session:
        row = CreditPurchase(user_id=user_id, bundle="starter", credits=500, amount_cents=10000, provider="test",
                             provider_session_id=f"cs_test_{uuid.uuid4().hex}", status="pending")
        session.add(row)
        session.flush()
        purchases.fulfil_in(session, row.id)
        return row.id


def test_delete_account_keeps_ledger_and_purchases_and_removes_the_rest(db_url, new_user):
    user = new_user(credits=200, admin=True, confirmed=True)
    referee = new_user()
    with session_scope() as session:
        session.get(Profile, referee.id).referred_by = user.id
        webhook_keys.rotate_key(session, user.id)
        session.add(WebhookRequest(user_id=user.id, method="POST", endpoint="/functions/v1/x", response_status=200,
                                   ip_address="203.0.113.9", request_body={"leadCount": 1}))
        session.add(BulkScrape(user_id=user.id, lead_count=2, leads_generated=2, credits_used=200,
                               params={"cities": ["Austin"]}, output=[{"address": "1 Main St"}]))
        session.add(EmailOutbox(to_address=user.email, subject="hello", body="x"))
        session.add(LoginAttempt(email=user.email, ip_address="1.2.3.4", succeeded=False))
        held_lead = factories.lead(is_active=False)
        session.add(held_lead)
        session.flush()
        session.add(HeldProperty(user_id=user.id, key="address:1 MAIN ST|78701", lead_id=held_lead.id))
        session.add(WebhookIdempotencyKey(user_id=user.id, key="retry-1", body_sha256="0" * 64, status=200,
                                          response_body={"leads_generated": 0}))
        session.add(OwnerContact(user_id=user.id, lead_id=held_lead.id, provider="demo", status="found",
                                 phones=[{"number": "5125550100", "type": "mobile", "dnc": False}], emails=[]))
        pending = CreditPurchase(user_id=user.id, bundle="pro", credits=1500, amount_cents=27000, provider="test",
                                 provider_session_id=f"cs_test_{uuid.uuid4().hex}", status="pending")
        session.add(pending)
    purchase_id = _paid_purchase(user.id)
    _session(user.id)
    pair = _session(user.id)
    with read_scope() as session:
        ledger_rows = session.exec(select(func.count()).select_from(CreditLedger)
                                   .where(CreditLedger.user_id == user.id)).one()

    with pytest.raises(svc.SettingsError) as err:
        svc.delete_account(user.id, "someone-else@example.com")
    assert err.value.title == "Account Not Deleted"
    assert _profile(user.id) is not None

    result = svc.delete_account(user.id, "  " + user.email.upper() + " ")
    assert result == svc.Deleted(email=user.email, credits_forfeited=700)

    with read_scope() as session:
        tomb = session.get(User, user.id)
        assert tomb.deleted_at is not None
        assert tomb.email == f"deleted-{user.id.hex}@deleted.invalid"
        assert session.get(Profile, user.id) is None
        assert session.get(Subscription, user.id) is None
        assert session.get(SuperAdmin, user.id) is None
        for model, cond in ((AuthSession, AuthSession.user_id == user.id),
                            (WebhookRequest, WebhookRequest.user_id == user.id),
                            (HeldProperty, HeldProperty.user_id == user.id),
                            (WebhookIdempotencyKey, WebhookIdempotencyKey.user_id == user.id),
                            (OwnerContact, OwnerContact.user_id == user.id),
                            (EmailOutbox, EmailOutbox.to_address == user.email),
                            (LoginAttempt, LoginAttempt.email == user.email)):
            assert session.exec(select(func.count()).select_from(model).where(cond)).one() == 0, model
        # Kept: the ledger (all of it, plus the forfeit), the purchases, the scrape's bookkeeping without its data.
        rows = session.exec(select(CreditLedger).where(CreditLedger.user_id == user.id)
                            .order_by(CreditLedger.id)).all()
        assert len(rows) == ledger_rows + 1
        assert (rows[-1].delta, rows[-1].reason, rows[-1].balance_after) == (-700, "forfeited", 0)
        assert session.get(CreditPurchase, purchase_id).status == "paid"
        assert session.get(CreditPurchase, pending.id).status == "canceled"
        scrape = session.exec(select(BulkScrape).where(BulkScrape.user_id == user.id)).one()
        assert (scrape.credits_used, scrape.output, scrape.params) == (200, [], {})
        assert session.get(Profile, referee.id).referred_by == user.id  # the referee keeps the link
        assert ledger.ledger_sum(session, user.id) == 0  # balance = ledger holds for deleted accounts too
    assert not _alive(pair)
    with pytest.raises(accounts.AuthError):
        accounts.sign_in_user(user.email, "secret123")
    with pytest.raises(svc.SettingsError):
        svc.load_settings(user.id)


def test_deleting_an_account_with_no_credits_writes_no_ledger_row(db_url, new_user):
    user = new_user()
    assert svc.delete_account(user.id, user.email) == svc.Deleted(email=user.email, credits_forfeited=0)
    with read_scope() as session:
        assert session.exec(select(func.count()).select_from(CreditLedger)
                            .where(CreditLedger.user_id == user.id)).one() == 0


def test_a_referee_of_a_deleted_account_still_gets_the_first_purchase_bonus(db_url, new_user):
    """The referee's purchase succeeds with its 50 % bonus; the deleted referrer earns nothing."""
    referrer = new_user(credits=10)
    referee = new_user()
    with session_scope() as session:
        session.get(Profile, referee.id).referred_by = referrer.id
    svc.delete_account(referrer.id, referrer.email)
    _paid_purchase(referee.id)
    with read_scope() as session:
        assert _profile(referee.id).credits_remaining == 500 + 250
        reasons = session.exec(select(CreditLedger.reason).where(CreditLedger.user_id == referrer.id)).all()
    assert "referral_reward" not in reasons


def test_the_address_can_sign_up_again_after_deletion(db_url, new_user):
    user = new_user(password="secret123", confirmed=True)
    svc.delete_account(user.id, user.email)
    accounts.sign_up_user(first_name="Re", last_name="Turn", email=user.email, password="another1",
                          confirm_password="another1", ip_address="192.0.2.50")
    with read_scope() as session:
        fresh = accounts.find_user_by_email(session, user.email)
        assert fresh is not None and fresh.id != user.id and fresh.deleted_at is None
        assert session.get(Profile, fresh.id).credits_remaining == 0
        mails = session.exec(select(EmailOutbox).where(EmailOutbox.to_address == user.email)).all()
    assert [m.subject for m in mails] == [CONFIRM_SUBJECT]  # a new account, not "already registered"
