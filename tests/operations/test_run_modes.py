"""The run modes of one settings file (DESIGN.md section 1), each checked in a process of its own
with a controlled environment (forked from one that imported only libraries: config.settings is
imported afresh in each, as in a new interpreter): the embedded default (SQLite under VAR_DIR,
local-memory cache, in-memory channel layer, in-process jobs, secrets generated once into an ignored
file) and the production stack (DATABASE_URL, REDIS_URL). APP_ENV says the rules (local, test,
production); infrastructure without APP_ENV is production: it refuses to start without its secrets,
ALLOWED_HOSTS and METRICS_TOKEN, and writes no file at import."""

import base64
import json
import os
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client

from config.settings import _SECRET_NAMES as SECRET_NAMES
from tests.support.processes import ROOT

PRODUCTION_ONLY = ("ALLOWED_HOSTS", "METRICS_TOKEN")
# One value fits every secret, whatever its format: also a valid Fernet key (32 bytes, base64).
SECRET_VALUE = base64.urlsafe_b64encode(b"set-in-the-environment".ljust(32, b".")).decode()
INFRASTRUCTURE = {
    "DATABASE_URL": "postgres://app:pw@db.internal:5432/kiosk",
    "REDIS_URL": "redis://cache.internal:6379/0",
}


def production_env(**overrides: str) -> dict[str, str]:
    env = {name: SECRET_VALUE for name in SECRET_NAMES}
    env.update(ALLOWED_HOSTS="kiosk.example.test", METRICS_TOKEN="scrape-token", **overrides)
    return env


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
    "app_env": settings.APP_ENV,
    "private_webhook_targets": settings.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    "allowed_hosts": settings.ALLOWED_HOSTS,
}))
"""


# Forks a child per request line ({"env", "code"}), its stdout and stderr in files of the caller's;
# answers each with the child's exit code. Only libraries are imported here, and none of them reads
# the environment the children are given: every child imports config.settings (and Django's set-up)
# itself, under its own environment, as a new interpreter would.
FORK_SERVER = """
import json, os, sys, traceback
import celery, django, django.db.models, kombu, psycopg, redis  # noqa: F401 - imported once, for every child
for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        out, err = os.open(request["stdout"], os.O_WRONLY), os.open(request["stderr"], os.O_WRONLY)
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.environ.clear()
        os.environ.update(request["env"])
        sys.stdin = open(os.devnull)
        code = 0
        try:
            exec(compile(request["code"], "<string>", "exec"), {"__name__": "__main__"})
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 1
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status), flush=True)
"""


class ForkServer:
    """`python -c PROBE` under an environment, at the cost of a fork: the libraries' imports, the
    most of a fresh interpreter's start, are paid once per module."""

    def __init__(self):
        self.process = subprocess.Popen(
            [sys.executable, "-c", FORK_SERVER],
            cwd=ROOT,
            env={k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "APP_ENV"}},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
        with tempfile.TemporaryDirectory() as folder:
            out, err = Path(folder, "stdout"), Path(folder, "stderr")
            out.touch()
            err.touch()
            request = {"env": env, "code": code, "stdout": str(out), "stderr": str(err)}
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            answer = self.process.stdout.readline()
            assert answer, f"the fork server exited with {self.process.wait(10)}"
            return subprocess.CompletedProcess(code, int(answer), out.read_text(), err.read_text())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(30)


_fork_servers: list[ForkServer] = []  # started by the module's first probe


@pytest.fixture(scope="module", autouse=True)
def _stop_fork_server() -> Iterator[None]:
    yield
    while _fork_servers:
        _fork_servers.pop().close()


def _run(tmp_path: Path, **env) -> subprocess.CompletedProcess:
    controlled = {"DATABASE_URL", "REDIS_URL", "APP_ENV", "REQUIRE_TLS", "WEBHOOK_ALLOW_PRIVATE_TARGETS"}
    controlled.update(SECRET_NAMES, PRODUCTION_ONLY)
    clean = {k: v for k, v in os.environ.items() if k not in controlled}
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=str(tmp_path / "var"), TASK_MODE="", **env)
    if not clean["TASK_MODE"]:
        del clean["TASK_MODE"]
    if not _fork_servers:
        _fork_servers.append(ForkServer())
    return _fork_servers[0].run(PROBE, clean)


def _settings(tmp_path: Path, **env) -> dict:
    result = _run(tmp_path, **env)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def _refused(result: subprocess.CompletedProcess, *names: str) -> str:
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    message = result.stderr.strip().splitlines()[-1]
    assert all(name in message for name in names), message
    return message


def test_embedded_default_needs_no_services(tmp_path):
    found = _settings(tmp_path)
    assert found["app_env"] == "local"
    assert found["db_engine"] == "django.db.backends.sqlite3"
    assert found["db_name"] == str(tmp_path / "var" / "db.sqlite3")
    assert found["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert found["channel_layer"] == "channels.layers.InMemoryChannelLayer"
    assert found["task_mode"] == "thread"  # in-process, never blocking a request
    assert found["broker"] == "memory://"
    assert found["celery_app"] and found["asgi"] == "config.asgi.application"
    assert found["require_tls"] is False
    assert found["private_webhook_targets"] is True


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
    found = _settings(tmp_path, APP_ENV="test", **INFRASTRUCTURE)
    assert found["db_engine"] == "django.db.backends.postgresql"
    assert found["db_name"] == "kiosk"
    assert "Redis" in found["cache"]
    assert found["cache_location"] == "redis://cache.internal:6379/0"
    assert found["channel_layer"] == "channels_redis.core.RedisChannelLayer"
    assert found["task_mode"] == "celery"
    assert found["broker"] == "redis://cache.internal:6379/0"


@pytest.mark.parametrize("app_env", ["test", "local"])
def test_an_explicit_test_or_local_mode_on_infrastructure_is_permissive(tmp_path, app_env):
    found = _settings(tmp_path, APP_ENV=app_env, **INFRASTRUCTURE)
    assert found["app_env"] == app_env
    assert found["private_webhook_targets"] is True
    assert found["require_tls"] is False and found["hsts"] == 0
    assert found["secret_key"] == json.loads((tmp_path / "var" / "secrets.json").read_text())["SECRET_KEY"]


@pytest.mark.parametrize("infrastructure", ["DATABASE_URL", "REDIS_URL"])
def test_infrastructure_without_app_env_refuses_to_start_without_its_secrets(tmp_path, infrastructure):
    result = _run(tmp_path, **{infrastructure: INFRASTRUCTURE[infrastructure]})
    message = _refused(result, *SECRET_NAMES, *PRODUCTION_ONLY)
    assert "without APP_ENV" in message
    assert "APP_ENV=local" in message and "APP_ENV=test" in message  # how to ask for a non-production run
    assert not (tmp_path / "var").exists()  # no generated secrets, no folders


def test_infrastructure_without_app_env_runs_by_the_production_rules(tmp_path):
    found = _settings(tmp_path, **INFRASTRUCTURE, **production_env())
    assert found["app_env"] == "production"
    assert found["private_webhook_targets"] is False  # no SSRF to the private network
    assert found["require_tls"] is True and found["hsts"] >= 31536000
    assert found["secret_key"] == SECRET_VALUE  # from the environment, not generated per host
    assert found["allowed_hosts"] == ["kiosk.example.test"]


@pytest.mark.parametrize("missing", [SECRET_NAMES, ("VIDEO_APP_CERTIFICATE",)], ids=["all-secrets", "one-secret"])
def test_app_env_production_refuses_to_start_without_its_secrets(tmp_path, missing):
    env = {name: value for name, value in production_env().items() if name not in missing}
    message = _refused(_run(tmp_path, APP_ENV="production", **env), *missing)
    assert "APP_ENV=production" in message
    assert not (tmp_path / "var" / "secrets.json").exists()  # never falls back to generated secrets


@pytest.mark.parametrize("infrastructure", [False, True], ids=["app-env-production", "infrastructure-only"])
@pytest.mark.parametrize("missing", PRODUCTION_ONLY)
def test_production_refuses_to_start_without_allowed_hosts_or_a_metrics_token(tmp_path, missing, infrastructure):
    env = production_env(**({} if infrastructure else {"APP_ENV": "production"}))
    del env[missing]
    result = _run(tmp_path, **env, **(INFRASTRUCTURE if infrastructure else {}))
    message = _refused(result, missing)
    assert all(name not in message for name in SECRET_NAMES)  # names only what is missing


def test_app_env_production_with_its_secrets_turns_on_the_tls_rules(tmp_path):
    found = _settings(tmp_path, APP_ENV="production", **production_env())
    assert found["require_tls"] is True
    assert found["hsts"] >= 31536000
    assert found["private_webhook_targets"] is False
    assert found["secret_key"] == SECRET_VALUE


@pytest.mark.parametrize("infrastructure", [False, True], ids=["app-env-production", "infrastructure-only"])
def test_importing_production_settings_writes_no_file(tmp_path, infrastructure):
    env = production_env(**({} if infrastructure else {"APP_ENV": "production"}))
    found = _settings(tmp_path, **env, **(INFRASTRUCTURE if infrastructure else {}))
    assert found["app_env"] == "production"
    assert list(tmp_path.iterdir()) == []  # neither VAR_DIR, its static folder nor a secrets file


@pytest.mark.parametrize("value", ["staging", "prod", "Production"])
def test_an_unknown_app_env_is_refused(tmp_path, value):
    _refused(_run(tmp_path, APP_ENV=value), repr(value), "local", "test", "production")
    assert not (tmp_path / "var").exists()


def test_metrics_refuse_a_scrape_without_the_bearer_token_in_production(db, settings):
    settings.PRODUCTION = True
    settings.METRICS_TOKEN = ""  # production refuses to start so; the view stays closed all the same
    assert Client().get("/metrics").status_code == 404
    settings.METRICS_TOKEN = "scrape-token"
    assert Client().get("/metrics").status_code == 404
    assert Client().get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 404
    scraped = Client().get("/metrics", headers={"Authorization": "Bearer scrape-token"})
    assert scraped.status_code == 200 and b"kiosk_sessions" in scraped.content
