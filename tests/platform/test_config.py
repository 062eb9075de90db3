"""Settings: database URL spellings, defaults, the payment mode, production checks."""

import dataclasses
import os
import subprocess
import sys

import pytest

from marketplace.platform.config import (
    PROJECT_ROOT,
    ConfigError,
    check_production,
    get_settings,
    normalize_database_url,
    reload_settings,
)

CONFIG_VARS = ("DATABASE_URL", "REDIS_URL", "SMTP_URL", "PORT", "SITE_URL", "SECRET_KEY", "APP_ENV", "PAYMENTS",
               "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_API_BASE", "LEAD_SOURCE", "OPEN_DATA_DATASETS",
               "BATCHDATA_API_KEY", "BATCHDATA_LISTS", "BATCHDATA_LOCATION")


def test_both_postgres_spellings_use_psycopg3():
    assert normalize_database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_database_url("postgresql://u@h:5432/db") == "postgresql+psycopg://u@h:5432/db"
    assert normalize_database_url("sqlite:///x.db") == "sqlite:///x.db"


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    for name in CONFIG_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MARKETPLACE_DATA_DIR", str(tmp_path))
    return monkeypatch


def test_defaults_need_no_configuration(clean_env, tmp_path):
    settings = reload_settings()
    assert settings.database_url == f"sqlite:///{tmp_path / 'marketplace.platform.db'}"
    assert settings.redis_url is None and settings.smtp_url is None
    assert settings.site_url is None  # unset: links use the address the browser is on
    assert settings.public_url == "http://localhost:3000"
    assert (settings.app_env, settings.payments, settings.demo_payments) == ("development", "test", True)
    check_production(settings)  # development: no production checks
    # the generated secret key is kept and reused
    assert len(settings.secret_key) > 40
    assert reload_settings().secret_key == settings.secret_key


def test_mailed_links_use_the_port_the_app_started_on_in_a_process_without_port(clean_env):
    """`PORT=8000 make run`, then `python -m marketplace refresh` in another terminal: the alert e-mail once
    linked to localhost:3000. The app keeps its port when it starts; a process without PORT mails that."""
    from marketplace.platform.config import record_served_port, served_port

    assert served_port() is None and reload_settings().public_url == "http://localhost:3000"
    record_served_port(8000)
    assert served_port() == 8000
    assert reload_settings().public_url == "http://localhost:8000"
    clean_env.setenv("PORT", "3100")  # a process given its own PORT mails its own
    assert reload_settings().public_url == "http://localhost:3100"
    clean_env.setenv("SITE_URL", "https://leads.example.com")  # SITE_URL always wins
    assert reload_settings().public_url == "https://leads.example.com"


def test_settings_are_read_once_until_reloaded(clean_env):
    assert reload_settings().port == 3000
    clean_env.setenv("PORT", "4100")
    assert get_settings().port == 3000  # every database scope asks: the environment is not read again
    assert reload_settings().port == 4100
    assert get_settings().port == 4100


# --------------------------------------------------------------------------- PAYMENTS


def test_payment_mode_follows_the_stripe_key_unless_set(clean_env):
    assert reload_settings().payments == "test"
    clean_env.setenv("STRIPE_SECRET_KEY", "sk_test_x")
    assert reload_settings().payments == "stripe"
    clean_env.setenv("PAYMENTS", "test")  # an explicit choice wins over the key
    assert reload_settings().payments == "test"
    clean_env.setenv("PAYMENTS", " Stripe ")
    settings = reload_settings()
    assert (settings.payments, settings.stripe_secret_key) == ("stripe", "sk_test_x")


@pytest.mark.parametrize(("env", "message"), [
    ({"PAYMENTS": "stripe"}, "PAYMENTS=stripe needs STRIPE_SECRET_KEY"),
    ({"PAYMENTS": "free"}, "PAYMENTS must be test or stripe, got 'free'"),
    ({"APP_ENV": "staging"}, "APP_ENV must be development or production, got 'staging'"),
])
def test_bad_payment_settings_are_config_errors(clean_env, env, message):
    for name, value in env.items():
        clean_env.setenv(name, value)
    with pytest.raises(ConfigError) as err:
        reload_settings()
    assert str(err.value) == message


# --------------------------------------------------------------------------- APP_ENV=production

PRODUCTION = {"APP_ENV": "production", "STRIPE_SECRET_KEY": "sk_live_x", "STRIPE_WEBHOOK_SECRET": "whsec_x",
              "SECRET_KEY": "k" * 48, "SITE_URL": "https://leads.example.com/",
              "OPEN_DATA_DATASETS": "phl-opa-properties"}


@pytest.mark.parametrize(("unset", "extra", "message"), [
    (("STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"), {},
     "APP_ENV=production refuses to start: set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET "
     "(PAYMENTS=test is the free TEST MODE checkout)"),
    ((), {"PAYMENTS": "test"},
     "APP_ENV=production refuses to start: set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET "
     "(PAYMENTS=test is the free TEST MODE checkout)"),
    (("STRIPE_WEBHOOK_SECRET",), {}, "APP_ENV=production refuses to start: set STRIPE_WEBHOOK_SECRET"),
    (("SECRET_KEY",), {}, "APP_ENV=production refuses to start: set SECRET_KEY"),
    (("SITE_URL",), {}, "APP_ENV=production refuses to start: set SITE_URL"),
    (tuple(PRODUCTION)[1:-1], {},
     "APP_ENV=production refuses to start: set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, SECRET_KEY, SITE_URL "
     "(PAYMENTS=test is the free TEST MODE checkout)"),
])
def test_production_refuses_test_payments_and_missing_settings(clean_env, unset, extra, message):
    for name, value in {**PRODUCTION, **extra}.items():
        if name not in unset:
            clean_env.setenv(name, value)
    with pytest.raises(ConfigError) as err:
        check_production(reload_settings())
    assert str(err.value) == message
    assert "\n" not in str(err.value)


NO_REAL_SOURCE = ("APP_ENV=production refuses to start: set OPEN_DATA_DATASETS or BATCHDATA_API_KEY + "
                  "BATCHDATA_LISTS + BATCHDATA_LOCATION (the built-in generator makes demo data, never sold)")


@pytest.mark.parametrize("extra", [
    {},
    {"LEAD_SOURCE": "builtin"},
    {"OPEN_DATA_DATASETS": " , "},  # only separators: no dataset
    {"BATCHDATA_API_KEY": "bd_x", "BATCHDATA_LISTS": "preforeclosure"},  # no location
    {"BATCHDATA_LISTS": "preforeclosure", "BATCHDATA_LOCATION": "Phoenix, AZ"},  # no key
])
def test_production_with_only_the_built_in_generator_refuses(clean_env, extra):
    """Stripe, a secret key and a site address, but no public-record dataset or BatchData list:
    every lead would be invented, so production refuses, naming what is missing."""
    for name, value in {**PRODUCTION, "OPEN_DATA_DATASETS": "", **extra}.items():
        clean_env.setenv(name, value)
    with pytest.raises(ConfigError) as err:
        check_production(reload_settings())
    assert str(err.value) == NO_REAL_SOURCE
    # development never refuses on it: the demo install runs on the generator
    clean_env.setenv("APP_ENV", "development")
    check_production(reload_settings())


@pytest.mark.parametrize("source", [
    {"OPEN_DATA_DATASETS": "phl-opa-properties"},
    {"OPEN_DATA_DATASETS": "", "BATCHDATA_API_KEY": "bd_x", "BATCHDATA_LISTS": "preforeclosure",
     "BATCHDATA_LOCATION": "Phoenix, AZ"},
])
def test_production_starts_with_a_real_lead_source(clean_env, source):
    for name, value in {**PRODUCTION, **source}.items():
        clean_env.setenv(name, value)
    check_production(reload_settings())


@pytest.mark.parametrize("datasets", ["phl-opa-propertes", "fhfa-hpi-zip3", "nosuch, fhfa-hpi-zip3"])
def test_production_refuses_datasets_that_make_no_leads(clean_env, datasets):
    """A typo'd dataset id, or the price index alone, is no real lead source: production refuses, naming it."""
    for name, value in {**PRODUCTION, "OPEN_DATA_DATASETS": datasets}.items():
        clean_env.setenv(name, value)
    with pytest.raises(ConfigError) as err:
        check_production(reload_settings())
    named = ", ".join(part.strip() for part in datasets.split(","))
    assert str(err.value) == (f"APP_ENV=production refuses to start: OPEN_DATA_DATASETS names no lead dataset "
                              f"({named}); set " + NO_REAL_SOURCE.split("set ", 1)[1].split(" (", 1)[0])
    clean_env.setenv("OPEN_DATA_DATASETS", datasets + ",chi-vacant-buildings-violations")  # one known: starts
    check_production(reload_settings())


def test_production_with_everything_set_starts(clean_env):
    for name, value in PRODUCTION.items():
        clean_env.setenv(name, value)
    settings = reload_settings()
    check_production(settings)
    assert (settings.is_production, settings.payments, settings.site_url) == (
        True, "stripe", "https://leads.example.com")
    # the same settings in development never refuse
    check_production(dataclasses.replace(settings, app_env="development", payments="test", site_url=None))


def _import_app(env: dict, tmp_path) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in CONFIG_VARS}
    return subprocess.run(
        [sys.executable, "-c", "import marketplace.marketplace"],
        cwd=PROJECT_ROOT, env={**clean, "MARKETPLACE_DATA_DIR": str(tmp_path), **env},
        capture_output=True, text=True, timeout=300,
    )


def test_the_app_does_not_start_in_production_with_test_payments(tmp_path):
    """The app module itself refuses: one line on stderr, exit status 1, no traceback."""
    proc = _import_app({"APP_ENV": "production", "SECRET_KEY": "k" * 48, "SITE_URL": "https://x.example"}, tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "Configuration error: APP_ENV=production refuses to start: set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET "
        "(PAYMENTS=test is the free TEST MODE checkout)"]


def _migrate(env: dict, tmp_path) -> None:
    clean = {k: v for k, v in os.environ.items() if k not in CONFIG_VARS}
    subprocess.run([sys.executable, "-m", "marketplace", "migrate"], cwd=PROJECT_ROOT, check=True,
                   env={**clean, "MARKETPLACE_DATA_DIR": str(tmp_path), **env}, capture_output=True, timeout=300)


def test_the_app_does_not_start_in_production_on_the_built_in_generator(tmp_path):
    env = {**PRODUCTION, "OPEN_DATA_DATASETS": ""}
    proc = _import_app(env, tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip().splitlines() == [f"Configuration error: {NO_REAL_SOURCE}"]


def test_the_app_does_not_start_on_a_database_that_was_never_migrated(tmp_path):
    """One line naming the fix, exit status 1, no scheduler traceback."""
    proc = _import_app({}, tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "Database error: the database was never migrated: run `make migrate`"]


def test_the_app_does_not_start_when_the_database_cannot_be_opened(tmp_path):
    proc = _import_app({"DATABASE_URL": "postgresql://postgres@127.0.0.1:1/none"}, tmp_path)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Database error: cannot open the database ("), lines


@pytest.mark.db  # migrates a database of its own in a subprocess
def test_the_app_starts_in_development_and_in_production_with_stripe(tmp_path):
    _migrate({}, tmp_path)
    assert _import_app({}, tmp_path).returncode == 0
    proc = _import_app(PRODUCTION, tmp_path)
    assert proc.returncode == 0, proc.stderr


# --------------------------------------------------------------------------- LEAD_MAX_HOLDERS


@pytest.mark.parametrize(("raw", "value"), [(None, 5), ("", 5), ("0", 0), (" 3 ", 3), ("12", 12)])
def test_the_cap_on_holders_defaults_to_5_and_0_turns_it_off(clean_env, raw, value):
    if raw is not None:
        clean_env.setenv("LEAD_MAX_HOLDERS", raw)
    else:
        clean_env.delenv("LEAD_MAX_HOLDERS", raising=False)
    assert reload_settings().lead_max_holders == value


@pytest.mark.parametrize(("raw", "message"), [
    ("-1", "LEAD_MAX_HOLDERS must be 0 (no cap) or a positive whole number, got -1"),
    ("five", "LEAD_MAX_HOLDERS must be a whole number, got 'five'"),
    ("2.5", "LEAD_MAX_HOLDERS must be a whole number, got '2.5'"),
])
def test_a_bad_cap_on_holders_is_a_config_error(clean_env, raw, message):
    clean_env.setenv("LEAD_MAX_HOLDERS", raw)
    with pytest.raises(ConfigError) as err:
        reload_settings()
    assert str(err.value) == message
