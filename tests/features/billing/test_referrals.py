"""Self-referral is refused at sign-up and at the first purchase: same browser
(device id) as the referrer, or the referrer's own mailbox under another
spelling. Referral codes are never route names."""

import pytest
from sqlmodel import select

from marketplace.platform.db import session_scope
from marketplace.platform.models import CreditLedger, Profile, User
from marketplace.features.accounts import service as accounts
from marketplace.platform import sessions as auth_sessions
from marketplace.features.billing import service as purchases, service_referrals as referrals

DEVICE = "browser-of-the-referrer-01"
OTHER_DEVICE = "another-browser-entirely-02"


def _code(user_id):
    with session_scope() as s:
        return s.get(Profile, user_id).referral_code


def _referred_by(email):
    with session_scope() as s:
        user = s.exec(select(User).where(User.email == email)).one()
        return s.get(Profile, user.id).referred_by


def _sign_up(email, code, device_id=OTHER_DEVICE):
    with session_scope() as s:
        return accounts.sign_up(s, first_name="New", last_name="Person", email=email, password="secret1",
                                confirm_password="secret1", referral_code=code, device_id=device_id,
                                ip_address="10.5.0.1")


def _signed_in_on(user_id, device_id):
    with session_scope() as s:
        auth_sessions.create_session(s, user_id, device_id=device_id)


@pytest.fixture
def referrer(new_user):
    user = new_user(email="john.doe@gmail.com", confirmed=True)
    _signed_in_on(user.id, DEVICE)
    return user


def test_sign_up_in_the_referrers_browser_is_refused(db_url, referrer):
    result = _sign_up("friend@example.com", _code(referrer.id), device_id=DEVICE)
    assert result.referral_refused is True
    assert _referred_by("friend@example.com") is None


def test_sign_up_in_another_browser_is_referred(db_url, referrer):
    result = _sign_up("friend@example.com", _code(referrer.id))
    assert result.referral_refused is False
    assert _referred_by("friend@example.com") == referrer.id


@pytest.mark.parametrize("email", ["John.Doe@gmail.com", "johndoe@gmail.com", "j.o.h.n.d.o.e+deal@gmail.com",
                                   "johndoe+x@googlemail.com"])
def test_sign_up_with_the_referrers_own_mailbox_is_refused(db_url, referrer, email):
    assert _sign_up(email, _code(referrer.id)).referral_refused is True
    assert _referred_by(email.lower()) is None


@pytest.mark.parametrize(("referrer_email", "new_email", "same"), [
    ("pat@outlook.com", "pat+second@outlook.com", True),
    ("pat@hotmail.com", "PAT+2@Hotmail.com", True),
    ("pat@yahoo.com", "pat-deals@yahoo.com", True),
    ("pat@icloud.com", "pat+a@icloud.com", True),
    ("pat@fastmail.com", "pat+a@fastmail.com", True),
    ("p.at@outlook.com", "pat@outlook.com", False),  # Outlook keeps dots
    ("pat@example.com", "pat+x@example.com", False),  # unknown provider: +tags may be real names
    ("pat@gmail.com", "pat@gmail.co", False),
])
def test_mailbox_variants(db_url, new_user, referrer_email, new_email, same):
    owner = new_user(email=referrer_email, confirmed=True)
    assert _sign_up(new_email, _code(owner.id)).referral_refused is same
    assert (_referred_by(new_email.lower()) is None) is same


def test_the_first_purchase_refuses_a_referrer_who_signed_in_on_the_buyers_browser(db_url, referrer, new_user):
    buyer = new_user(email="second-account@example.com", confirmed=True)
    _signed_in_on(buyer.id, DEVICE)
    code = _code(referrer.id)
    assert referrals.is_valid_code(code) is True  # a visitor may see it as a real code
    assert referrals.is_valid_code(code, buyer.id) is False  # but not this buyer
    assert referrals.bind_referrer(buyer.id, code) is False
    purchases.start_purchase(buyer.id, "starter", code)
    with session_scope() as s:
        assert s.get(Profile, buyer.id).referred_by is None
        assert s.exec(select(CreditLedger).where(CreditLedger.user_id == referrer.id)).all() == []


def test_the_first_purchase_refuses_the_referrers_mailbox_and_binds_a_stranger(db_url, referrer, new_user):
    alias = new_user(email="john.doe+2@googlemail.com", confirmed=True)
    assert referrals.bind_referrer(alias.id, _code(referrer.id)) is False
    stranger = new_user(email="jane@gmail.com", confirmed=True)
    _signed_in_on(stranger.id, OTHER_DEVICE)
    assert referrals.is_valid_code(_code(referrer.id), stranger.id) is True
    assert referrals.bind_referrer(stranger.id, _code(referrer.id)) is True
    with session_scope() as s:
        assert s.get(Profile, stranger.id).referred_by == referrer.id


@pytest.mark.parametrize("code", ["PRICING", "pricing", "Dashboard", "marketplace", "AUTH", "api", "404"])
def test_a_route_name_is_refused_as_a_referral_code(db_url, new_user, code):
    user = new_user()
    before = _code(user.id)
    with pytest.raises(referrals.ReferralCodeError) as err:
        referrals.change_code(user.id, code)
    assert (err.value.title, err.value.message) == (
        "Code Unavailable", "This referral code is the name of a page on this site. Please choose another.")
    assert _code(user.id) == before
    assert referrals.update_referral_code(user.id, code) is False


@pytest.mark.parametrize("code", ["A" * 16, "A" * 100_000, None, 12345])
def test_an_overlong_or_odd_code_is_refused(db_url, new_user, code):
    user = new_user()
    before = _code(user.id)
    with pytest.raises(referrals.ReferralCodeError) as err:
        referrals.change_code(user.id, code)
    assert err.value.title == "Invalid Code"
    assert _code(user.id) == before
    assert referrals.owner_of(code if isinstance(code, str) else None) is None
