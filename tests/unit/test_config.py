"""Settings: database URL spellings and defaults."""

from marketplace.config import get_settings, normalize_database_url


def test_both_postgres_spellings_use_psycopg3():
    assert normalize_database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_database_url("postgresql://u@h:5432/db") == "postgresql+psycopg://u@h:5432/db"
    assert normalize_database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_defaults_need_no_configuration(monkeypatch, tmp_path):
    for name in ("DATABASE_URL", "REDIS_URL", "SMTP_URL", "PORT", "SITE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("MARKETPLACE_DATA_DIR", str(tmp_path))
    settings = get_settings()
    assert settings.database_url == f"sqlite:///{tmp_path / 'marketplace.db'}"
    assert settings.redis_url is None and settings.smtp_url is None
    assert settings.site_url == "http://localhost:3000"
    # the generated secret key is kept and reused
    assert len(settings.secret_key) > 40
    assert get_settings().secret_key == settings.secret_key
