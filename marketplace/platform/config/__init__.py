"""Runtime settings, read from environment variables.

Every setting has an embedded default so that a fresh checkout runs with no
configuration at all (SQLite file, the demo checkout, built-in lead
source). ``get_settings()`` reads the environment (and the generated secret key
file) once per process and keeps the result; ``reload_settings()`` reads it
again, for tests that change variables between cases. ``lead_settings()`` and
``skip_trace_settings()`` are read only when a source or a job starts, so they
read on every call.

Reading one variable (``environment``) and the owner-contact settings (``skip_trace``) live beside
this module; every name is importable from ``marketplace.platform.config``.

``APP_ENV=production`` turns on ``check_production``: the app refuses to start
without real payments (Stripe), a fixed ``SECRET_KEY``, a ``SITE_URL`` and a real lead source (a
public-record dataset or BatchData lists: the built-in generator makes demo data, never sold).
"""

from __future__ import annotations

import os
import secrets
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from marketplace.platform.web.http_policy import DEFAULT_BODY_LIMIT
from marketplace.platform.web.origin import valid_origin
from marketplace.platform.config.environment import ConfigError, _float, _flag, _int
from marketplace.platform.config.skip_trace import (
    BATCHDATA_SKIP_TRACE_DEFAULT_URL,
    skip_trace_price,
    skip_trace_settings,
)
from marketplace.platform.config.guarantee import guarantee_days  # noqa: F401 - every setting is importable from here
from marketplace.platform.config import map_tiles

PROJECT_ROOT = Path(__file__).resolve().parents[3]


def data_dir() -> Path:
    """Where the SQLite file and the generated secret key live by default."""
    return Path(os.environ.get("MARKETPLACE_DATA_DIR") or PROJECT_ROOT / "data")


def normalize_database_url(url: str) -> str:
    """Accept ``postgres://`` and ``postgresql://`` and use the psycopg 3 driver."""
    url = url.strip()
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def default_database_url() -> str:
    return f"sqlite:///{data_dir() / 'marketplace.platform.db'}"


SERVED_PORT_FILE = ".served_port"  # in the data directory: the port the web app last started on


def record_served_port(port: int) -> None:
    """Kept by the web app when it starts (a lifespan task), so e-mails sent by another process link to it."""
    path = data_dir() / SERVED_PORT_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{SERVED_PORT_FILE}.{os.getpid()}")
    temporary.write_text(str(port))
    os.replace(temporary, path)  # two workers starting together write the same port


def served_port() -> int | None:
    """The port ``record_served_port`` kept, or None (never started here, or not a port)."""
    try:
        text = (data_dir() / SERVED_PORT_FILE).read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() and 0 < int(text) < 65536 else None


def _secret_key() -> str:
    """SECRET_KEY from the environment, else one generated once and kept on disk."""
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    path = data_dir() / ".secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        # O_EXCL: two workers starting together agree on one key.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return path.read_text().strip()
        with os.fdopen(fd, "w") as fh:
            fh.write(key)
        return key


APP_ENVS = ("development", "production")
PAYMENT_MODES = ("test", "stripe")


def _app_env() -> str:
    raw = (os.environ.get("APP_ENV") or "development").strip().lower()
    if raw not in APP_ENVS:
        raise ConfigError(f"APP_ENV must be development or production, got {raw!r}")
    return raw


def _payments(stripe_secret_key: str | None) -> str:
    """PAYMENTS=test|stripe; unset: stripe when STRIPE_SECRET_KEY is set, else test."""
    raw = (os.environ.get("PAYMENTS") or "").strip().lower()
    if not raw:
        return "stripe" if stripe_secret_key else "test"
    if raw not in PAYMENT_MODES:
        raise ConfigError(f"PAYMENTS must be test or stripe, got {raw!r}")
    if raw == "stripe" and not stripe_secret_key:
        raise ConfigError("PAYMENTS=stripe needs STRIPE_SECRET_KEY")
    return raw


@dataclass(frozen=True)
class Settings:
    database_url: str
    redis_url: str | None
    secret_key: str
    port: int
    site_url: str | None  # SITE_URL as configured; None: the browser's address (pages), localhost (e-mails)
    smtp_url: str | None
    mail_from: str
    access_token_ttl: int
    refresh_token_ttl: int
    login_max_failures: int
    login_window_seconds: int
    trusted_proxy_hops: int  # X-Forwarded-For hops appended by our own proxies (0: use the peer)
    signup_max_per_hour: int  # sign-up attempts allowed per client IP per hour
    app_env: str  # "development" or "production" (production checks on)
    payments: str  # "test": the built-in TEST MODE checkout; "stripe": Stripe Checkout
    stripe_secret_key: str | None
    stripe_webhook_secret: str | None
    stripe_api_base: str | None
    secret_key_configured: bool  # SECRET_KEY came from the environment (not generated)
    max_body_bytes: int = DEFAULT_BODY_LIMIT  # request bodies above this get 413 (every route but the Stripe webhook)
    stripe_webhook_max_body_bytes: int = 512 * 1024  # the same for POST /api/stripe/webhook
    body_read_timeout: float = 10.0  # seconds a request body may make the app wait for its next bytes (408)
    image_misses_per_minute: int = 120  # house pictures per client IP a minute that are not in memory (429)
    # MAP_TILE_URL ('' = no tiles: markers on a plain background) and MAP_TILE_ATTRIBUTION (HTML)
    map_tile_url: str = map_tiles.DEFAULT_TILE_URL
    map_tile_attribution: str = map_tiles.DEFAULT_TILE_ATTRIBUTION
    # The port e-mailed links use without SITE_URL: PORT when this process has it, else the port the web app
    # last started on (``record_served_port``: a command run in another terminal mails the app's address).
    mail_port: int | None = None
    # LEAD_MAX_HOLDERS: at most this many investors hold one lead (unlocks, subscription unlocks, bulk scrapes
    # and webhook deliveries all count; unlock.rules_holders); 0 = no cap
    lead_max_holders: int = 5

    @property
    def is_production(self) -> bool:
        return self.app_env == "production"

    @property
    def demo_payments(self) -> bool:
        return self.payments == "test"

    @property
    def public_url(self) -> str:
        """SITE_URL, else the address ``make run`` prints (``http://localhost:PORT``; in a process without
        PORT, such as ``python -m marketplace refresh`` in another terminal, the port the app started on).

        The base of every link that is e-mailed (confirmation, the sign-up notice, alert
        digests and their unsubscribe links): never the request's Origin or Host header,
        which whoever sends the request chooses, and a mail goes to someone else."""
        return self.site_url or f"http://localhost:{self.mail_port or self.port}"

    def base_url(self, origin: str | None = None) -> str:
        """Where links shown to the user in their own browser point (checkout return
        addresses, share links): SITE_URL when set, else the address the browser is on
        (``origin``, re-validated), else ``public_url``. Never for a mailed link."""
        return self.site_url or valid_origin(origin) or self.public_url


BATCHDATA_DEFAULT_BASE_URL = "https://api.batchdata.com/api/v1"


@dataclass(frozen=True)
class LeadSettings:
    """Where leads come from and when they refresh (read when a source or the refresh job needs them)."""

    source: str  # LEAD_SOURCE: "builtin" (default) or "http" (RentCast)
    source_url: str | None  # LEAD_SOURCE_URL: the provider's API root (None: its default)
    source_api_key: str | None  # LEAD_SOURCE_API_KEY
    source_timeout: str  # LEAD_SOURCE_TIMEOUT as given (seconds; the HTTP source validates it)
    source_fetch_values: bool  # LEAD_SOURCE_FETCH_VALUES: 0 skips the value-estimate calls
    refresh_count: int  # LEAD_REFRESH_COUNT: leads asked of the source per daily refresh
    max_age_days: int  # LEAD_MAX_AGE_DAYS: older marketplace leads are archived by the refresh
    refresh_scheduler: bool  # LEAD_REFRESH_SCHEDULER: off disables the daily 8:00 job (tests)
    refresh_retry_minutes: int  # LEAD_REFRESH_RETRY_MINUTES: wait before retrying a failed refresh
    # BatchData, the commercial list source of pre-foreclosure, auction and probate-proxy signals
    # (features/scrape/source_batchdata.py): BATCHDATA_API_KEY (None: the source is off), BATCHDATA_BASE_URL (the API root),
    # BATCHDATA_TIMEOUT (seconds as given; the client validates it), BATCHDATA_MAX_ROWS (properties read
    # per quick list per run: every property returned is billed)
    batchdata_api_key: str | None = field(default=None, repr=False)  # never printed with the settings
    batchdata_base_url: str = BATCHDATA_DEFAULT_BASE_URL
    batchdata_timeout: str = "30"
    batchdata_max_rows: int = 500
    # OPEN_DATA_DATASETS: comma list of public-record dataset ids the records refresh fetches live
    # (empty by default: nothing leaves the machine; ``python -m marketplace refresh-records``).
    open_data_datasets: tuple[str, ...] = ()
    # BATCHDATA_LISTS: comma list of BatchData quick lists the records refresh ingests (each its own dataset
    # "batchdata-<list>"), in BATCHDATA_LOCATION (BatchData's query: "Phoenix, AZ" or a ZIP code). Both and
    # BATCHDATA_API_KEY are needed; empty by default.
    batchdata_lists: tuple[str, ...] = ()
    batchdata_location: str = ""
    # OPEN_DATA_DIR: the folder of dataset files (default marketplace/features/records/datasets; a copy with a changed
    # endpoint points a dataset at a mirror, or at the tests' fake portal)
    open_data_dir: str | None = None
    # SCRAPE_PROCESSES: worker processes per server process that run bulk scrapes (webhook API), so their
    # pure-Python work never competes with the event loop for the GIL; 0 runs them on the thread pool.
    scrape_processes: int = 2
    # RECORD_HEARTBEAT_SECONDS: how often a running dataset pull (a queued job, import-records,
    # refresh-records) stamps its run's heartbeat; RECORD_DEAD_AFTER_SECONDS: a run or queue worker whose
    # heartbeat is older than this died: its run is marked failed and its job retried (features/records/jobs_queue.py)
    record_heartbeat_seconds: float = 10.0
    record_dead_after_seconds: float = 60.0
    # SQLITE_BATCH_MS: on SQLite, the longest an ingestion's write transaction should hold the database's
    # one write lock, in milliseconds (the batches are sized from the time the last ones took)
    sqlite_batch_ms: float = 100.0

    @property
    def batchdata_configured(self) -> bool:
        return bool(self.batchdata_api_key and self.batchdata_lists and self.batchdata_location)

    @property
    def records_configured(self) -> bool:
        """Whether the records refresh has anything to pull (then the worker runs and scrapes draw from
        the public-record inventory)."""
        return bool(self.open_data_datasets) or self.batchdata_configured


def lead_settings() -> LeadSettings:
    return LeadSettings(
        source=(os.environ.get("LEAD_SOURCE") or "builtin").strip().lower(),
        source_url=os.environ.get("LEAD_SOURCE_URL", "").strip() or None,
        source_api_key=os.environ.get("LEAD_SOURCE_API_KEY", "").strip() or None,
        source_timeout=os.environ.get("LEAD_SOURCE_TIMEOUT", "").strip() or "10",
        source_fetch_values=_flag("LEAD_SOURCE_FETCH_VALUES", True),
        refresh_count=_int("LEAD_REFRESH_COUNT", 500),
        max_age_days=_int("LEAD_MAX_AGE_DAYS", 30),
        refresh_scheduler=_flag("LEAD_REFRESH_SCHEDULER", True),
        refresh_retry_minutes=_int("LEAD_REFRESH_RETRY_MINUTES", 15),
        batchdata_api_key=os.environ.get("BATCHDATA_API_KEY", "").strip() or None,
        batchdata_base_url=(os.environ.get("BATCHDATA_BASE_URL", "").strip().rstrip("/")
                            or BATCHDATA_DEFAULT_BASE_URL),
        batchdata_timeout=os.environ.get("BATCHDATA_TIMEOUT", "").strip() or "30",
        batchdata_max_rows=max(1, _int("BATCHDATA_MAX_ROWS", 500)),
        open_data_datasets=tuple(dict.fromkeys(
            part.strip() for part in os.environ.get("OPEN_DATA_DATASETS", "").split(",") if part.strip())),
        batchdata_lists=tuple(dict.fromkeys(
            part.strip() for part in os.environ.get("BATCHDATA_LISTS", "").split(",") if part.strip())),
        batchdata_location=" ".join(os.environ.get("BATCHDATA_LOCATION", "").split()),
        open_data_dir=os.environ.get("OPEN_DATA_DIR", "").strip() or None,
        scrape_processes=max(0, _int("SCRAPE_PROCESSES", 2)),
        record_heartbeat_seconds=max(0.2, _float("RECORD_HEARTBEAT_SECONDS", 10.0)),
        record_dead_after_seconds=max(1.0, _float("RECORD_DEAD_AFTER_SECONDS", 60.0)),
        sqlite_batch_ms=max(1.0, _float("SQLITE_BATCH_MS", 100.0)),
    )


REAL_SOURCE_SETTINGS = "OPEN_DATA_DATASETS or BATCHDATA_API_KEY + BATCHDATA_LISTS + BATCHDATA_LOCATION"


def lead_dataset_ids(directory: str | None) -> set[str]:
    """The ids of the dataset files (``OPEN_DATA_DIR``, else the shipped marketplace/features/records/datasets) that make
    leads (every kind but the price index); a file that cannot be read names nothing."""
    import tomllib

    folder = Path(directory) if directory else PROJECT_ROOT / "marketplace" / "features" / "records" / "datasets"
    ids = set()
    for path in folder.glob("*.toml"):
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        if raw.get("kind") != "hpi":
            ids.add(str(raw.get("id") or path.stem))
    return ids


def check_production(settings: Settings, leads: LeadSettings | None = None) -> None:
    """With APP_ENV=production, refuse to start (ConfigError, one line) unless
    payments are real, the secret key and public address are fixed, and at least one real
    lead source is configured (``leads``: the lead settings, read now when not given)."""
    if not settings.is_production:
        return
    leads = leads or lead_settings()
    missing = []
    if settings.demo_payments:
        # The TEST MODE checkout lets any signed-in user pay their own checkout: free credits.
        missing += ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"]
    elif not settings.stripe_webhook_secret:
        missing.append("STRIPE_WEBHOOK_SECRET")
    if not settings.secret_key_configured:
        missing.append("SECRET_KEY")
    if not settings.site_url:
        missing.append("SITE_URL")
    if missing:
        payments = " (PAYMENTS=test is the free TEST MODE checkout)" if settings.demo_payments else ""
        raise ConfigError(
            f"APP_ENV=production refuses to start: set {', '.join(missing)}{payments}"
        )
    if not leads.records_configured:
        # Only the built-in generator: every lead would be invented, and sold for real money.
        raise ConfigError(
            f"APP_ENV=production refuses to start: set {REAL_SOURCE_SETTINGS} "
            "(the built-in generator makes demo data, never sold)"
        )
    if not leads.batchdata_configured:
        # A dataset id that names no lead-making dataset file (a typo, or the price index alone) is no
        # source: the install would start with nothing real to sell.
        if not lead_dataset_ids(leads.open_data_dir).intersection(leads.open_data_datasets):
            raise ConfigError(
                f"APP_ENV=production refuses to start: OPEN_DATA_DATASETS names no lead dataset "
                f"({', '.join(leads.open_data_datasets)}); set {REAL_SOURCE_SETTINGS}"
            )


def exit_unless_ready() -> None:
    """At app start: a bad setting, or production without what it needs, stops the
    process with one line on stderr (no traceback) and exit status 1."""
    try:
        check_production(get_settings())
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(1) from None


@cache
def get_settings() -> Settings:
    """The settings, read from the environment on the first call and kept (see the module docstring)."""
    port = _int("PORT", 3000)
    stripe_secret_key = os.environ.get("STRIPE_SECRET_KEY", "").strip() or None
    site_url = (os.environ.get("SITE_URL") or "").strip().rstrip("/") or None
    return Settings(
        database_url=normalize_database_url(os.environ.get("DATABASE_URL") or default_database_url()),
        redis_url=os.environ.get("REDIS_URL") or None,
        secret_key=_secret_key(),
        port=port,
        mail_port=port if os.environ.get("PORT") else served_port(),
        site_url=site_url,
        smtp_url=os.environ.get("SMTP_URL") or None,
        mail_from=os.environ.get("MAIL_FROM") or "LeadVault <no-reply@leadvault.app>",
        access_token_ttl=_int("ACCESS_TOKEN_TTL", 3600),
        refresh_token_ttl=_int("REFRESH_TOKEN_TTL", 30 * 24 * 3600),
        login_max_failures=_int("LOGIN_MAX_FAILURES", 5),
        login_window_seconds=_int("LOGIN_WINDOW_SECONDS", 900),
        trusted_proxy_hops=max(0, _int("TRUSTED_PROXY_HOPS", 0)),
        signup_max_per_hour=max(1, _int("SIGNUP_MAX_PER_HOUR", 10)),
        app_env=_app_env(),
        payments=_payments(stripe_secret_key),
        stripe_secret_key=stripe_secret_key,
        stripe_webhook_secret=os.environ.get("STRIPE_WEBHOOK_SECRET", "").strip() or None,
        stripe_api_base=os.environ.get("STRIPE_API_BASE", "").strip() or None,
        secret_key_configured=bool(os.environ.get("SECRET_KEY")),
        max_body_bytes=max(1024, _int("MAX_BODY_BYTES", DEFAULT_BODY_LIMIT)),
        stripe_webhook_max_body_bytes=max(1024, _int("STRIPE_WEBHOOK_MAX_BODY_BYTES", 512 * 1024)),
        body_read_timeout=max(1, _int("BODY_READ_TIMEOUT", 10)),
        image_misses_per_minute=max(1, _int("IMAGE_MISSES_PER_MINUTE", 120)),
        map_tile_url=map_tiles.tile_url(os.environ.get("MAP_TILE_URL")),
        map_tile_attribution=(os.environ.get("MAP_TILE_ATTRIBUTION") or map_tiles.DEFAULT_TILE_ATTRIBUTION).strip(),
        lead_max_holders=_max_holders(),
    )


LEAD_MAX_HOLDERS_DEFAULT = 5


def _max_holders() -> int:
    """LEAD_MAX_HOLDERS: a whole number, 0 (no cap) or more; anything else stops the app."""
    try:
        value = _int("LEAD_MAX_HOLDERS", LEAD_MAX_HOLDERS_DEFAULT)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if value < 0:
        raise ConfigError(f"LEAD_MAX_HOLDERS must be 0 (no cap) or a positive whole number, got {value}")
    return value


RECORD_BATCH_SIZE_DEFAULT = 5000


def record_batch_size() -> int:
    """RECORD_BATCH_SIZE: public records per ingestion batch (one transaction) on PostgreSQL, default 5000
    (SQLite keeps its own smaller batch: its one write lock is held per batch)."""
    return max(1, _int("RECORD_BATCH_SIZE", RECORD_BATCH_SIZE_DEFAULT))


def reload_settings() -> Settings:
    """Read the environment again (tests that change a variable call this after it)."""
    get_settings.cache_clear()
    return get_settings()
