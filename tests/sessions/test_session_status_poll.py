"""The status poll's own read path (apps.sessions.selectors.session_status_for_kiosk and
sessions.bodies.status_body) skips the ORM's query compiler for speed; these tests hold it to
exactly what the ORM read gives, with every field StatusOut documents, in every state, on
PostgreSQL and on the embedded SQLite (whose datetimes need the database converters)."""

import json
import os
import subprocess
import sys

import pytest
from django.utils import timezone

from apps.core.errors import DomainError
from apps.sessions import selectors
from apps.sessions.bodies import StatusOut, status_body
from tests import factories
from tests.support.processes import ROOT
from tests.support.sessions import sessions_in_every_state


def test_status_read_equals_the_orm_read_in_every_state(business, agent):
    for session in sessions_in_every_state(business, agent):
        kiosk = session.kiosk
        orm = selectors.session_for_kiosk(kiosk=kiosk, public_id=session.public_id)
        fast = selectors.session_status_for_kiosk(kiosk=kiosk, public_id=session.public_id)
        assert (fast.pk, fast.public_id, fast.status, fast.agent_id) == (
            orm.pk,
            orm.public_id,
            orm.status,
            orm.agent_id,
        )
        assert (fast.created_at, fast.accepted_at, fast.ended_at) == (orm.created_at, orm.accepted_at, orm.ended_at)
        assert status_body(fast) == status_body(orm), session.status
        assert set(status_body(fast)) == set(StatusOut().fields)


def test_an_agents_brief_is_its_public_fields(kiosk, agent):
    session = factories.SessionFactory(kiosk=kiosk, status="active", agent=agent, accepted_at=timezone.now())
    body = status_body(selectors.session_status_for_kiosk(kiosk=kiosk, public_id=session.public_id))
    assert agent.avatar_url == ""  # none set: null, not "" (docs/decisions/api.md "Absent URLs and locations")
    assert body["agent"] == {"id": str(agent.pk), "name": agent.name, "avatar_url": None}


def test_another_kiosks_or_an_unknown_session_is_not_found(kiosk, other_business):
    same_owner = factories.SessionFactory(kiosk=factories.KioskFactory(business=kiosk.business))
    foreign = factories.SessionFactory(kiosk=factories.KioskFactory(business=other_business))
    for public_id in (same_owner.public_id, foreign.public_id, "ses_nothing", "' OR 1=1 --"):
        with pytest.raises(DomainError) as raised:
            selectors.session_status_for_kiosk(kiosk=kiosk, public_id=public_id)
        assert raised.value.code == "SESSION_NOT_FOUND"


EMBEDDED_PROBE = """
import json, django
django.setup()
from tests.support.schema import tables_from_models
tables_from_models()
from django.utils import timezone
from apps.sessions import ending
from apps.sessions import selectors, services
from apps.sessions.bodies import status_body
from tests import factories

kiosk = factories.KioskFactory()
agent = factories.AgentFactory(owner=kiosk.business.owner)
session = services.session_start(kiosk=kiosk, customer_locale="en-US")
bodies = []
for step in ("pending", "accepted", "ended"):
    if step == "accepted":
        services.session_accept(public_id=session.public_id, agent=agent)
    if step == "ended":
        ending.session_end(public_id=session.public_id, agent=agent, reason="completed", notes="")
    fast = status_body(selectors.session_status_for_kiosk(kiosk=kiosk, public_id=session.public_id))
    orm = status_body(selectors.session_for_kiosk(kiosk=kiosk, public_id=session.public_id))
    bodies.append([fast, orm])

# The whole kiosk path on the local-memory cache: credentials, rate limit, cached status.
from django.test import Client
client = Client(headers={"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token})
polled = [client.get(f"/api/public/sessions/{session.public_id}/status") for _ in range(3)]
assert [response.status_code for response in polled] == [200, 200, 200], polled[0].content
assert all(response.json() == bodies[-1][0] for response in polled)
print(json.dumps(bodies))
"""


def test_status_read_on_the_embedded_sqlite_database(tmp_path):
    environment = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "APP_ENV"}}
    environment.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=str(tmp_path / "var"), TASK_MODE="sync")
    result = subprocess.run(
        [sys.executable, "-c", EMBEDDED_PROBE],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    bodies = json.loads(result.stdout.strip().splitlines()[-1])
    assert [fast["status"] for fast, _ in bodies] == ["pending", "active", "completed"]
    for fast, orm in bodies:
        assert fast == orm
        assert fast["created_at"].endswith("Z")
    assert bodies[2][0]["ended_at"].endswith("Z") and bodies[2][0]["duration_seconds"] >= 0
