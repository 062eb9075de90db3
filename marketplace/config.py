"""Runtime settings, read from environment variables.

Every setting has an embedded default so that a fresh checkout runs with no
configuration at all (SQLite file, built-in test checkout, built-in lead
source). ``get_settings()`` re-reads the environment on every call, which keeps
tests free to change variables between cases.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


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
    return f"sqlite:///{data_dir() / 'marketplace.db'}"


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


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError as exc:  # a misconfiguration should stop the app loudly
        raise ValueError(f"{name} must be a whole number, got {raw!r}") from exc


@dataclass(frozen=True)
class Settings:
    database_url: str
    redis_url: str | None
    secret_key: str
    port: int
    site_url: str
    smtp_url: str | None
    mail_from: str
    access_token_ttl: int
    refresh_token_ttl: int
    login_max_failures: int
    login_window_seconds: int

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


def get_settings() -> Settings:
    port = _int("PORT", 3000)
    return Settings(
        database_url=normalize_database_url(os.environ.get("DATABASE_URL") or default_database_url()),
        redis_url=os.environ.get("REDIS_URL") or None,
        secret_key=_secret_key(),
        port=port,
        site_url=(os.environ.get("SITE_URL") or f"http://localhost:{port}").rstrip("/"),
        smtp_url=os.environ.get("SMTP_URL") or None,
        mail_from=os.environ.get("MAIL_FROM") or "LeadVault <no-reply@leadvault.app>",
        access_token_ttl=_int("ACCESS_TOKEN_TTL", 3600),
        refresh_token_ttl=_int("REFRESH_TOKEN_TTL", 30 * 24 * 3600),
        login_max_failures=_int("LOGIN_MAX_FAILURES", 5),
        login_window_seconds=_int("LOGIN_WINDOW_SECONDS", 900),
    )
