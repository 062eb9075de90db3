"""Users: the account rows (``users``, ``profiles``, ``subscriptions``, ``super_admins``): creating one,
finding one by e-mail, the header's ``CurrentUser`` and the super-admin flag. Every function works
inside the caller's transaction (``accounts.service`` owns the sign-up, sign-in and confirmation flows
that use them; the CLI, the seeding and the tests compose them too)."""

from __future__ import annotations

import uuid

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func, select

from marketplace.features.accounts import rules as account_rules
from marketplace.platform.errors import UserError
from marketplace.platform.texts import ALREADY_REGISTERED, SIGN_UP_FAILED_TITLE
from marketplace.platform.models import Profile, Subscription, SuperAdmin, User, utcnow
from marketplace.platform import ledger
from marketplace.features.accounts.service_passwords import hash_password


class AuthError(UserError):
    """A sign-in or sign-up refusal the UI shows as ``title: message``."""

    def __init__(self, title: str, message: str, *, retry_after: int | None = None):
        super().__init__(title, message)
        self.retry_after = retry_after



def _unique_referral_code(session: Session) -> str:
    for _ in range(20):
        code = account_rules.generate_referral_code()  # never a route name
        if session.exec(select(Profile.user_id).where(func.upper(Profile.referral_code) == code)).first() is None:
            return code
    raise RuntimeError("could not generate a unique referral code")


def find_user_by_email(session: Session, email: str) -> User | None:
    return session.exec(select(User).where(User.email == (email or "").strip().lower())).first()


def create_user(
    session: Session,
    email: str,
    password: str,
    first_name: str,
    last_name: str,
    *,
    credits: int = 0,
    confirmed: bool = False,
    admin: bool = False,
    referred_by: uuid.UUID | None = None,
    password_hash: str | None = None,
) -> User:
    """Create a user with profile (and optional opening credits through the ledger),
    inside the caller's transaction.

    Raises ``AuthError('Sign Up Failed', 'User already registered')`` for a
    taken e-mail and ``ValueError`` for a malformed e-mail, a password shorter
    than 6 or longer than 128 characters, or a name over 100 characters.
    """
    try:
        account_rules.check_lengths(first_name, last_name, email, password)
        account_rules.check_password(password)
    except account_rules.ValidationError as exc:
        raise ValueError(exc.message) from None
    email = account_rules.normalize_email(email)
    if find_user_by_email(session, email) is not None:
        raise AuthError(SIGN_UP_FAILED_TITLE, ALREADY_REGISTERED)
    user = User(
        email=email,
        password_hash=password_hash or hash_password(password),
        email_confirmed_at=utcnow() if confirmed else None,
    )
    try:
        with session.begin_nested():  # a concurrent sign-up with the same e-mail fails alone
            session.add(user)
            session.flush()
    except IntegrityError as exc:
        raise AuthError(SIGN_UP_FAILED_TITLE, ALREADY_REGISTERED) from exc
    session.add(
        Profile(
            user_id=user.id,
            first_name=(first_name or "").strip(),
            last_name=(last_name or "").strip(),
            referral_code=_unique_referral_code(session),
            referred_by=referred_by,
        )
    )
    session.add(Subscription(user_id=user.id))
    session.flush()
    if credits:
        ledger.apply_credits(session, user.id, credits, "admin_grant", reference_id=None)
    if admin:
        session.add(SuperAdmin(user_id=user.id))
        session.flush()
    return user



def make_admin(session: Session, email: str) -> User:
    user = find_user_by_email(session, email)
    if user is None:
        raise LookupError(f"No user with e-mail {email}")
    if session.get(SuperAdmin, user.id) is None:
        session.add(SuperAdmin(user_id=user.id))
        session.flush()
    return user


