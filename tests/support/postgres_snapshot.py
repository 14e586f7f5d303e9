"""A private PostgreSQL cluster (tests/support/private_servers.py) already migrated and seeded by
seed_demo, for the tests that stop PostgreSQL under a live server. Migrating and seeding a fresh
cluster took 70 s on a loaded machine, in each such test. The first test to need it for a version
of the code (the template databases' digest, tests/support/template_database.py) builds it and
keeps the stopped cluster's files and seed_demo's JSON beside the templates; every later one, in
this run or the next, copies them (about a second) and starts its own copy."""

import hashlib
import json
import shutil
import subprocess
import time
from pathlib import Path

from django.conf import settings

from tests.support.private_servers import PrivatePostgres
from tests.support.processes import manage
from tests.support.template_database import STALE_FILE_SECONDS, TEMPLATES_DIR, code_digest, file_lock


def _copy(source: Path, target: Path) -> None:
    subprocess.run(["cp", "-a", str(source), str(target)], check=True, capture_output=True, timeout=120)


def _secrets_digest() -> str:
    """The seeded rows hold what the checkout's secrets sealed (webhook secrets, device tokens'
    hashes): another checkout of the same code on this machine has other secrets (its
    var/secrets.json) and needs its own copy, or its server cannot open them (a 500)."""
    sealed_with = "\n".join([settings.SECRET_KEY, *settings.WEBHOOK_SECRET_KEYS])
    return hashlib.sha256(sealed_with.encode()).hexdigest()[:8]


def seeded_private_postgres(workdir: Path) -> tuple[PrivatePostgres, dict]:
    """A started cluster in `workdir` holding the migrated schema and seed_demo's rows, and
    seed_demo's JSON (its owners, kiosks with their device tokens, agents with their passwords)."""
    postgres = PrivatePostgres(workdir)
    key = f"pgdata-{postgres.bin.parent.name}-{code_digest()}-{_secrets_digest()}"
    snapshot = TEMPLATES_DIR / key
    with file_lock(key):
        if (snapshot / "demo.json").exists():
            postgres.adopt(lambda data: _copy(snapshot / "pgdata", data))
            snapshot.touch()  # in use: not stale
        else:
            postgres.create()
            env = {"DATABASE_URL": postgres.url}
            try:
                manage(env, "migrate", "--noinput")
                seeded = manage(env, "seed_demo", "--json").strip().splitlines()[-1]
            finally:
                postgres.stop()
            building = snapshot.with_name(f"{key}.building")  # renamed when whole
            shutil.rmtree(building, ignore_errors=True)
            building.mkdir()
            _copy(postgres.data, building / "pgdata")
            (building / "demo.json").write_text(seeded)
            building.rename(snapshot)
            postgres.start()
            for stale in TEMPLATES_DIR.glob("pgdata-*"):
                if stale != snapshot and time.time() - stale.stat().st_mtime > STALE_FILE_SECONDS:
                    shutil.rmtree(stale, ignore_errors=True)
    return postgres, json.loads((snapshot / "demo.json").read_text())
