"""The two run modes of one settings file (issue 2 point 2, DESIGN.md section 1), each checked
in a fresh interpreter with a controlled environment: the embedded default (SQLite under VAR_DIR,
local-memory cache, in-memory channel layer, in-process jobs, secrets generated once into an
ignored file) and the production stack (DATABASE_URL, REDIS_URL); APP_ENV=production refuses to
start without its secrets."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SECRET_NAMES = (
    "SECRET_KEY",
    "REALTIME_APP_ID",
    "REALTIME_APP_KEY",
    "REALTIME_APP_SECRET",
    "VIDEO_APP_ID",
    "VIDEO_APP_CERTIFICATE",
)
PROBE = """
import json, django
from django.conf import settings
django.setup()
from config.celery import app
print(json.dumps({
    "db_engine": settings.DATABASES["default"]["ENGINE"],
    "db_name": str(settings.DATABASES["default"]["NAME"]),
    "cache": settings.CACHES["default"]["BACKEND"],
    "cache_location": settings.CACHES["default"].get("LOCATION", ""),
    "channel_layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "task_mode": settings.TASK_MODE,
    "broker": settings.CELERY_BROKER_URL,
    "celery_app": app.main,
    "asgi": settings.ASGI_APPLICATION,
    "secret_key": settings.SECRET_KEY,
    "realtime_app_id": settings.REALTIME_APP_ID,
    "video_app_id": settings.VIDEO_APP_ID,
    "require_tls": settings.REQUIRE_TLS,
    "hsts": getattr(settings, "SECURE_HSTS_SECONDS", 0),
}))
"""


def _run(tmp_path: Path, **env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "APP_ENV", *SECRET_NAMES}}
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=str(tmp_path / "var"), TASK_MODE="", **env)
    if not clean["TASK_MODE"]:
        del clean["TASK_MODE"]
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60, check=False
    )


def _settings(tmp_path: Path, **env) -> dict:
    result = _run(tmp_path, **env)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_embedded_default_needs_no_services(tmp_path):
    found = _settings(tmp_path)
    assert found["db_engine"] == "django.db.backends.sqlite3"
    assert found["db_name"] == str(tmp_path / "var" / "db.sqlite3")
    assert found["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert found["channel_layer"] == "channels.layers.InMemoryChannelLayer"
    assert found["task_mode"] == "thread"  # in-process, never blocking a request
    assert found["broker"] == "memory://"
    assert found["celery_app"] and found["asgi"] == "config.asgi.application"
    assert found["require_tls"] is False


def test_embedded_secrets_are_generated_once_into_a_private_file(tmp_path):
    first = _settings(tmp_path)
    secrets_file = tmp_path / "var" / "secrets.json"
    stored = json.loads(secrets_file.read_text())
    assert set(SECRET_NAMES) <= set(stored)
    assert stat.S_IMODE(secrets_file.stat().st_mode) == 0o600
    assert len(stored["VIDEO_APP_ID"]) == 32 and int(stored["VIDEO_APP_ID"], 16) >= 0

    second = _settings(tmp_path)
    assert second["secret_key"] == first["secret_key"] == stored["SECRET_KEY"]
    assert second["realtime_app_id"] == first["realtime_app_id"]


def test_the_secrets_file_is_ignored_by_git():
    result = subprocess.run(
        ["git", "check-ignore", "var/secrets.json", "var/db.sqlite3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.stdout.split() == ["var/secrets.json", "var/db.sqlite3"]


def test_environment_secrets_override_the_generated_ones(tmp_path):
    found = _settings(tmp_path, SECRET_KEY="from-the-environment", VIDEO_APP_ID="ab" * 16)
    assert found["secret_key"] == "from-the-environment"
    assert found["video_app_id"] == "ab" * 16


def test_production_stack_uses_postgresql_and_redis(tmp_path):
    found = _settings(
        tmp_path, DATABASE_URL="postgres://app:pw@db.internal:5432/kiosk", REDIS_URL="redis://cache.internal:6379/0"
    )
    assert found["db_engine"] == "apps.core.postgresql"
    assert found["db_name"] == "kiosk"
    assert "Redis" in found["cache"]
    assert found["cache_location"] == "redis://cache.internal:6379/0"
    assert found["channel_layer"] == "channels_redis.core.RedisChannelLayer"
    assert found["task_mode"] == "celery"
    assert found["broker"] == "redis://cache.internal:6379/0"


@pytest.mark.parametrize("missing", [SECRET_NAMES, ("VIDEO_APP_CERTIFICATE",)], ids=["all-secrets", "one-secret"])
def test_app_env_production_refuses_to_start_without_its_secrets(tmp_path, missing):
    env = {name: "set-in-the-environment" for name in SECRET_NAMES if name not in missing}
    result = _run(tmp_path, APP_ENV="production", ALLOWED_HOSTS="kiosk.example.test", **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert all(name in result.stderr for name in missing)
    assert not (tmp_path / "var" / "secrets.json").exists()  # never falls back to generated secrets


def test_app_env_production_with_its_secrets_turns_on_the_tls_rules(tmp_path):
    env = {name: "set-in-the-environment" for name in SECRET_NAMES}
    found = _settings(tmp_path, APP_ENV="production", ALLOWED_HOSTS="kiosk.example.test", **env)
    assert found["require_tls"] is True
    assert found["hsts"] >= 31536000
    assert found["secret_key"] == "set-in-the-environment"
