"""Sessions: expiry, refresh-token rotation with a grace period and reuse
detection (two tabs refreshing at once stay signed in; a copied refresh
token used later revokes the session), sign-out."""

import threading
from datetime import timedelta

from sqlmodel import select

from marketplace.platform.db import session_scope
from marketplace.platform.models import AuthSession, utcnow
from marketplace.platform import sessions as auth_sessions
from marketplace.platform.sessions import REFRESH_GRACE


def _session_for(new_user, **kw):
    user = new_user(confirmed=True)
    with session_scope() as s:
        return user, auth_sessions.create_session(s, user.id, **kw)


def _validate(token, now=None):
    with session_scope() as s:
        return auth_sessions.validate_access_token(s, token, now=now)


def _rotate(token, now=None):
    with session_scope() as s:
        return auth_sessions.rotate(s, token, now=now)


def _row():
    with session_scope() as s:
        return s.exec(select(AuthSession)).one()


def test_grace_is_thirty_seconds():
    assert REFRESH_GRACE == timedelta(seconds=30)


def test_access_token_expires_and_refresh_rotates_both_tokens(db_url, new_user):
    user, pair = _session_for(new_user)
    later = utcnow() + timedelta(hours=2)
    assert _validate(pair.access_token, now=later) is None
    rotation = _rotate(pair.refresh_token, now=later)
    new = rotation.pair
    assert rotation.user_id == user.id and new.access_token != pair.access_token
    assert new.refresh_token != pair.refresh_token
    assert _validate(new.access_token, now=later) == user.id
    row = _row()
    assert row.rotated_at == later
    assert row.prev_refresh_token_hash == auth_sessions.hash_token(pair.refresh_token)
    assert _rotate(new.refresh_token, now=utcnow() + timedelta(days=31)) is None  # refresh tokens expire too


def test_previous_pair_works_within_the_grace_without_a_second_rotation(db_url, new_user):
    user, pair = _session_for(new_user)
    t0 = utcnow() + timedelta(hours=2)
    new = _rotate(pair.refresh_token, now=t0).pair
    inside = t0 + REFRESH_GRACE - timedelta(seconds=1)
    # The tab that lost the race: its old refresh token gives the user, no new tokens, no rotation.
    assert _rotate(pair.refresh_token, now=inside) == auth_sessions.Rotation(user.id, None, new.access_expires_at)
    assert _validate(pair.access_token, now=inside) == user.id
    row = _row()
    assert row.refresh_token_hash == auth_sessions.hash_token(new.refresh_token) and not row.revoked
    # ... and the winner's new pair keeps working.
    assert _validate(new.access_token, now=inside) == user.id
    assert _rotate(new.refresh_token, now=inside).pair is not None


def test_reuse_of_the_previous_refresh_token_after_the_grace_revokes_the_family(db_url, new_user):
    user, pair = _session_for(new_user)
    t0 = utcnow()
    new = _rotate(pair.refresh_token, now=t0).pair
    after = t0 + REFRESH_GRACE + timedelta(seconds=1)
    assert _validate(pair.access_token, now=after) is None  # the old access token's grace is over
    assert _rotate(pair.refresh_token, now=after) is None  # a copied token shows up: revoke
    row = _row()
    assert row.revoked and row.revoked_at is not None
    assert _validate(new.access_token, now=after) is None
    assert _rotate(new.refresh_token, now=after) is None


def test_two_tabs_refreshing_at_once_both_stay_signed_in(db_url, new_user):
    """Both tabs send the same expired access token and refresh token at the same moment."""
    user, pair = _session_for(new_user)
    with session_scope() as s:
        row = s.exec(select(AuthSession)).one()
        row.access_expires_at = utcnow() - timedelta(minutes=1)
    barrier = threading.Barrier(2)
    results, errors = [], []

    def tab():
        barrier.wait()
        try:
            results.append(auth_sessions.resolve_session(pair.access_token, pair.refresh_token))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=tab) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert [r.user_id for r in results] == [user.id, user.id]
    refreshed = [r.refreshed for r in results if r.refreshed is not None]
    assert len(refreshed) == 1  # one rotation; the other tab keeps its tokens until the new pair syncs
    assert not _row().revoked
    # The loser's tokens keep working during the grace; the winner's pair after it.
    assert auth_sessions.resolve_session(pair.access_token, pair.refresh_token).user_id == user.id
    assert auth_sessions.resolve_session(refreshed[0].access_token, refreshed[0].refresh_token).user_id == user.id


def test_resolve_session_refreshes_only_what_the_server_says_is_expiring(db_url, new_user):
    user, pair = _session_for(new_user)
    # A fresh token: no refresh, whatever the tab believed; the real expiry comes back.
    fresh = auth_sessions.resolve_session(pair.access_token, pair.refresh_token)
    assert fresh == auth_sessions.SessionCheck(user.id, None, pair.access_expires_at)
    with session_scope() as s:
        s.exec(select(AuthSession)).one().access_expires_at = utcnow() + timedelta(minutes=4)
    check = auth_sessions.resolve_session(pair.access_token, pair.refresh_token)
    assert check.user_id == user.id and check.refreshed is not None
    # A second tab asking the same a moment later: signed in with its old pair,
    # nothing new issued, told the current pair's expiry.
    again = auth_sessions.resolve_session(pair.access_token, pair.refresh_token)
    assert again == auth_sessions.SessionCheck(user.id, None, check.refreshed.access_expires_at)
    assert _row().refresh_token_hash == auth_sessions.hash_token(check.refreshed.refresh_token)
    assert auth_sessions.resolve_session("", "") == auth_sessions.SessionCheck(None, None)
    assert auth_sessions.resolve_session("nope", "nope") == auth_sessions.SessionCheck(None, None)


def test_sign_out_revokes_both_tokens_at_once(db_url, new_user):
    user, pair = _session_for(new_user)
    with session_scope() as s:
        assert auth_sessions.revoke_session(s, pair.access_token, pair.refresh_token)
    assert _validate(pair.access_token) is None
    assert _rotate(pair.refresh_token) is None
    row = _row()
    assert row.revoked and row.revoked_at is not None


def test_sign_out_from_the_tab_that_lost_the_race_revokes_the_session(db_url, new_user):
    user, pair = _session_for(new_user)
    new = _rotate(pair.refresh_token).pair
    assert auth_sessions.end_session(pair.access_token, pair.refresh_token)
    assert _validate(new.access_token) is None


def test_sessions_record_the_device(db_url, new_user):
    user, _ = _session_for(new_user, device_id="d" * 24)
    with session_scope() as s:
        assert auth_sessions.create_session(s, user.id, device_id="bad id!") is not None
        assert sorted(r.device_id for r in s.exec(select(AuthSession))) == ["", "d" * 24]


def test_last_active_moves_forward_at_most_every_five_minutes(db_url, new_user):
    """Settings > Signed-in devices shows when a device was last used: any checked event
    moves it, but only a stale value (older than LAST_USED_STEP) is written."""
    user, pair = _session_for(new_user)

    def last_used():
        with session_scope() as s:
            return s.exec(select(AuthSession.last_used_at).where(AuthSession.user_id == user.id)).one()

    created = last_used()
    assert auth_sessions.resolve_session(pair.access_token, pair.refresh_token).user_id == user.id
    assert last_used() == created  # fresh: nothing written

    stale = utcnow() - auth_sessions.LAST_USED_STEP - timedelta(minutes=1)
    with session_scope() as s:
        row = s.exec(select(AuthSession).where(AuthSession.user_id == user.id)).one()
        row.last_used_at = stale
    assert auth_sessions.resolve_session(pair.access_token, pair.refresh_token).user_id == user.id
    moved = last_used()
    assert moved > stale and utcnow() - moved < timedelta(minutes=1)
