"""The embedded default's files under var/ are this user's only (var/db.sqlite3 was once
world-readable): the database, its journal, secrets.json and the directory itself, whether created
now or left world-readable by an older version."""

import os
import stat
import subprocess
import sys

import pytest

from tests.support.processes import ROOT

OPEN_DATABASE = (
    "import django; django.setup();"
    "from django.db import connection;"
    "cursor = connection.cursor(); cursor.execute('create table if not exists t (x int)');"
    "cursor.execute('insert into t values (1)')"
)


def start_embedded(var_dir) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=str(var_dir), APP_ENV="local")
    done = subprocess.run(
        [sys.executable, "-c", OPEN_DATABASE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def permissive_umask():
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def test_new_var_files_are_created_private(tmp_path, permissive_umask):
    var_dir = tmp_path / "var"
    start_embedded(var_dir)
    assert mode(var_dir) == 0o700
    assert mode(var_dir / "secrets.json") == 0o600
    assert mode(var_dir / "db.sqlite3") == 0o600
    leftovers = [p for p in var_dir.iterdir() if p.name.startswith("db.sqlite3") and p.is_file()]
    assert all(mode(p) & 0o077 == 0 for p in leftovers), [(p.name, oct(mode(p))) for p in leftovers]


def test_world_readable_files_of_an_older_version_are_made_private(tmp_path, permissive_umask):
    var_dir = tmp_path / "var"
    start_embedded(var_dir)
    for path in (var_dir, var_dir / "secrets.json", var_dir / "db.sqlite3"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    start_embedded(var_dir)
    assert (mode(var_dir), mode(var_dir / "secrets.json"), mode(var_dir / "db.sqlite3")) == (0o700, 0o600, 0o600)


def test_uploaded_and_recorded_files_are_private(settings):
    assert settings.FILE_UPLOAD_PERMISSIONS == 0o600
    assert settings.FILE_UPLOAD_DIRECTORY_PERMISSIONS == 0o700
