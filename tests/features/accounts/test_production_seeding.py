"""Production never gets demo data or demo accounts (issue 40, item 3): ``make run`` checks the production
settings before anything is seeded, ``seed-demo`` and ``seed-leads`` refuse under ``APP_ENV=production`` with
one line and create nothing, and a super admin there is made only by the operator's own command. In
development ``seed-demo`` still makes the two demo accounts the README describes."""

from __future__ import annotations

import os
import subprocess
import sys

from sqlmodel import func, select

from marketplace.platform.config import PROJECT_ROOT
from marketplace.platform.db import session_scope
from marketplace.platform.models import Lead, SuperAdmin, User
from marketplace.features.accounts import service as accounts
from marketplace.features.scrape.service_seeding import DEMO_ADMIN, DEMO_INVESTOR

PRODUCTION = {"APP_ENV": "production", "STRIPE_SECRET_KEY": "sk_live_x", "STRIPE_WEBHOOK_SECRET": "whsec_x",
              "SECRET_KEY": "k" * 48, "SITE_URL": "https://leads.example.com",
              "OPEN_DATA_DATASETS": "phl-tax-delinquencies"}
REFUSED = ("error: APP_ENV=production: {} refused, nothing created (demo data is never loaded in production; "
           "make the operator's account with create-user --admin)")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in PRODUCTION and k != "PAYMENTS"}
    return {**env, **extra}


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "marketplace", *args], cwd=PROJECT_ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def make_seed(env: dict[str, str]) -> subprocess.CompletedProcess:
    """``make seed`` as ``make run`` runs it (the virtualenv is taken as installed: ``-o install``)."""
    return subprocess.run(["make", "--no-print-directory", "-o", "install", "seed"], cwd=PROJECT_ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def counts() -> tuple[int, int, int]:
    with session_scope() as s:
        return tuple(s.exec(select(func.count()).select_from(model)).one() for model in (User, SuperAdmin, Lead))


def test_make_run_checks_production_before_it_seeds_anything(db_url):
    out = make_seed(_env(**{**PRODUCTION, "SITE_URL": ""}))
    assert out.returncode != 0
    assert "Configuration error: APP_ENV=production refuses to start: set SITE_URL" in out.stderr.splitlines()
    assert "seed-demo" not in out.stdout and "migrate" not in out.stdout  # the check stopped it first
    assert counts() == (0, 0, 0)

    out = make_seed(_env(**PRODUCTION))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "APP_ENV=production: no demo data seeded"
    assert "password" not in out.stdout
    assert counts() == (0, 0, 0)


def test_the_order_of_make_run_is_check_migrate_seed():
    out = subprocess.run(["make", "-n", "-o", "install", "run"], cwd=PROJECT_ROOT, env=_env(), capture_output=True,
                         text=True, timeout=60)
    commands = [line for line in out.stdout.splitlines() if line.startswith("python -m marketplace")]
    assert commands[:3] == ["python -m marketplace check-production", "python -m marketplace migrate",
                            "python -m marketplace seed-demo --unless-production"]


def test_seed_demo_and_seed_leads_refuse_in_production_with_one_line(db_url):
    for args, what in ((("seed-demo", "--leads", "5"), "seed-demo"), (("seed-leads", "5"), "seed-leads")):
        out = cli(*args, env=_env(**PRODUCTION))
        assert out.returncode == 1
        assert out.stderr.splitlines() == [REFUSED.format(what)]
        assert out.stdout == ""
    assert counts() == (0, 0, 0)


def test_in_production_the_super_admin_is_the_operators_own(db_url):
    assert cli("seed-demo", "--leads", "5", env=_env(**PRODUCTION)).returncode == 1
    out = cli("create-user", "ops@example.com", "secret-123", "--first-name", "O", "--last-name", "P", "--admin",
              "--confirmed", env=_env(**PRODUCTION))
    assert out.returncode == 0, out.stderr
    with session_scope() as s:
        admins = s.exec(select(User.email).join(SuperAdmin, SuperAdmin.user_id == User.id)).all()
    assert admins == ["ops@example.com"]
    assert counts()[2] == 0


def test_check_production_answers_in_one_line(db_url):
    out = cli("check-production", env=_env(APP_ENV="production"))
    assert out.returncode == 1
    assert len(out.stderr.splitlines()) == 1
    assert out.stderr.startswith("Configuration error: APP_ENV=production refuses to start: set ")
    ok = cli("check-production", env=_env(**PRODUCTION))
    assert (ok.returncode, ok.stdout) == (0, "APP_ENV=production: the production settings are complete\n")
    dev = cli("check-production", env=_env())
    assert (dev.returncode, dev.stdout) == (0, "APP_ENV=development: a demo install (no production checks)\n")


def test_in_development_seed_demo_makes_the_demo_accounts(db_url):
    out = cli("seed-demo", "--leads", "5", "--unless-production", env=_env())
    assert out.returncode == 0, out.stderr
    assert f"investor     {DEMO_INVESTOR}" in out.stdout and f"super admin  {DEMO_ADMIN}" in out.stdout
    assert counts() == (2, 1, 5)
    with session_scope() as s:
        assert accounts.find_user_by_email(s, DEMO_ADMIN) is not None
