"""The operator CLI, run as a user would: ``python -m marketplace ...``."""

import json
import os
import subprocess
import sys

import pytest
from sqlmodel import func, select

from marketplace.platform.config import PROJECT_ROOT
from marketplace.platform.db import session_scope
from marketplace.platform.models import Lead, LeadRefreshRun, Profile, SuperAdmin
from marketplace.features.accounts import service as accounts
from marketplace.platform import ledger
from marketplace.features.scrape import service_webhooks as webhooks


def cli(*args):
    return subprocess.run([sys.executable, "-m", "marketplace", *args], cwd=PROJECT_ROOT, env=dict(os.environ),
                          capture_output=True, text=True, timeout=120)


def test_create_user_grant_admin_and_webhook_key(db_url):
    out = cli("create-user", "Cli@Example.com", "secret1", "--first-name", "Cli", "--last-name", "User",
              "--credits", "40", "--confirmed")
    assert out.returncode == 0, out.stderr
    user_id = json.loads(out.stdout)["user_id"]

    out = cli("grant-credits", "cli@example.com", "60")
    assert out.returncode == 0 and json.loads(out.stdout)["credits_remaining"] == 100

    assert cli("make-admin", "cli@example.com").returncode == 0

    out = cli("webhook-key", "cli@example.com")
    assert out.returncode == 0
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1
    payload = json.loads(lines[0])
    assert payload["user_id"] == user_id and payload["webhook_auth_key"].startswith("lvwh_")

    with session_scope() as s:
        user = accounts.find_user_by_email(s, "cli@example.com")
        assert user.email_confirmed_at is not None
        assert ledger.balance(s, user.id) == 100 == ledger.ledger_sum(s, user.id)
        assert s.get(SuperAdmin, user.id) is not None
        assert s.get(Profile, user.id).webhook_auth_key != payload["webhook_auth_key"]  # stored hashed

    assert webhooks.authenticate(user.id, payload["webhook_auth_key"]).is_super_admin
    rotated = json.loads(cli("webhook-key", "cli@example.com").stdout)["webhook_auth_key"]
    with pytest.raises(webhooks.BadKey):
        webhooks.authenticate(user.id, payload["webhook_auth_key"])
    assert webhooks.authenticate(user.id, rotated).user_id == user.id


def test_bad_input_exits_1_with_a_clear_message(db_url):
    cases = [
        (("grant-credits", "nobody@example.com", "5"), "no user with e-mail 'nobody@example.com'"),
        (("grant-credits", "nobody@example.com", "five"), "invalid int value: 'five'"),
        (("make-admin", "ghost@example.com"), "No user with e-mail ghost@example.com"),
        (("create-user", "bad-address", "secret1", "--first-name", "A", "--last-name", "B"), "error:"),
        (("create-user", "a@example.com", "123", "--first-name", "A", "--last-name", "B"),
         "Password must be at least 6 characters long."),
        (("seed-leads", "0"), "must be greater than 0"),
        (("no-such-command",), "invalid choice"),
    ]
    for args, message in cases:
        out = cli(*args)
        assert out.returncode == 1, (args, out.stdout, out.stderr)
        assert message in out.stderr, (args, out.stderr)


def test_duplicate_user_and_overdraw_exit_1_and_change_nothing(db_url):
    assert cli("create-user", "d@example.com", "secret1", "--first-name", "D", "--last-name", "U",
               "--credits", "10").returncode == 0
    out = cli("create-user", "D@example.com", "secret1", "--first-name", "D", "--last-name", "U")
    assert out.returncode == 1 and "User already registered" in out.stderr
    out = cli("grant-credits", "d@example.com", "-11")
    assert out.returncode == 1 and "You have 10 credits but need 11." in out.stderr
    with session_scope() as s:
        user = accounts.find_user_by_email(s, "d@example.com")
        assert ledger.balance(s, user.id) == 10 == ledger.ledger_sum(s, user.id)


def test_every_command_has_help(db_url):
    for command in ("migrate", "create-user", "grant-credits", "make-admin", "webhook-key", "seed-leads",
                    "refresh-leads", "seed-demo", "fetch-property-images", "grant-subscription"):
        out = cli(command, "--help")
        assert out.returncode == 0 and "usage:" in out.stdout


def test_seed_leads_and_refresh(db_url):
    out = cli("seed-leads", "250", "--seed", "7", "--quiet")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"leads_added": 250}
    first = json.loads(cli("refresh-leads").stdout)
    assert first["status"] == "completed" and first["leads_added"] == 500
    assert json.loads(cli("refresh-leads").stdout)["status"] == "skipped"
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(Lead)).one() == 750
        assert s.exec(select(func.count()).select_from(Lead).where(Lead.is_new)).one() == 500
        assert s.exec(select(func.count()).select_from(LeadRefreshRun)).one() == 1


def test_grant_subscription(db_url):
    assert cli("create-user", "s@example.com", "secret1", "--first-name", "S", "--last-name", "U").returncode == 0
    out = cli("grant-subscription", "s@example.com", "--type", "Pro", "--leads", "25", "--days", "30")
    assert out.returncode == 0, out.stderr
    payload = json.loads(out.stdout)
    assert (payload["subscribed"], payload["subscription_type"], payload["leads_remaining"]) == (True, "Pro", 25)
    assert cli("grant-subscription", "s@example.com", "--type", "Pro", "--leads", "-1").returncode == 1
