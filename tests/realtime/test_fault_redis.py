"""Redis stops while kiosks poll and agents accept: the REST surfaces keep answering correctly
(broadcasts and queued jobs are skipped, not fatal, and nothing hangs), and once Redis is back the
webhook deliveries committed meanwhile go out: nothing committed is lost."""

import json
import shutil
import time

import pytest
import requests

from apps.core.models import DomainEvent
from apps.routing import offers
from apps.webhooks import services as webhook_services
from apps.webhooks.models import WebhookDelivery
from apps.webhooks.tasks import dispatch_due_webhooks
from tests import factories
from tests.support.live import SERVER_CHECKED_HASHERS
from tests.support.private_servers import PrivateRedis
from tests.support.processes import web_server
from tests.support.receivers import Receiver

pytestmark = [
    pytest.mark.live,
    pytest.mark.postgres,  # the web process shares the PostgreSQL test database
    pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server"),
]

PASSWORD = "fault-test-password"
EVENTS = ["session.started", "session.accepted", "session.ended"]


def timed(call, *args, **kwargs):
    started = time.monotonic()
    response = call(*args, timeout=15, **kwargs)
    return response, time.monotonic() - started


def agent_session(base: str, email: str) -> requests.Session:
    http = requests.Session()
    http.get(f"{base}/api/csrf-cookie", timeout=10)
    http.headers["X-XSRF-TOKEN"] = http.cookies["XSRF-TOKEN"]
    response = http.post(f"{base}/api/login", json={"email": email, "password": PASSWORD}, timeout=30)
    assert response.status_code == 200, response.text
    http.headers["X-XSRF-TOKEN"] = http.cookies["XSRF-TOKEN"]  # sign-in rotates it
    return http


def kiosk_session(kiosk) -> requests.Session:
    http = requests.Session()
    http.headers.update({"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token})
    return http


@pytest.mark.django_db(transaction=True)
def test_rest_survives_a_redis_outage_and_webhooks_catch_up(settings):
    settings.PASSWORD_HASHERS = SERVER_CHECKED_HASHERS  # what the web process knows (PBKDF2), hashed once
    business = factories.BusinessFactory()
    kiosks = factories.KioskFactory.create_batch(2, business=business)
    agents = factories.AgentFactory.create_batch(2, owner=business.owner, password=PASSWORD)
    redis = PrivateRedis()
    redis.start()
    with Receiver() as receiver, web_server(REDIS_URL=redis.url, TASK_MODE="celery") as base:
        webhook_services.subscription_create(owner=business.owner, url=receiver.url, events=EVENTS)
        first_agent, second_agent = (agent_session(base, agent.email) for agent in agents)
        first_kiosk, second_kiosk = (kiosk_session(kiosk) for kiosk in kiosks)
        start = {"device_id": str(kiosks[0].device_id), "customer_locale": "en-US"}
        started = first_kiosk.post(f"{base}/api/public/sessions/start", json=start, timeout=15)
        assert started.status_code == 201, started.text
        first_id = started.json()["session_id"]

        redis.stop()  # ---- Redis is gone from here on
        # The router, as a worker runs it (there is none here): it needs only the database, and
        # without the real-time state it goes by the agents' last signs of life.
        assert offers.offers_dispatch() == 2

        poll, seconds = timed(first_kiosk.get, f"{base}/api/public/sessions/{first_id}/status")
        assert poll.status_code == 200 and poll.json()["status"] == "pending" and seconds < 5
        incoming, seconds = timed(first_agent.get, f"{base}/api/sessions/incoming")
        assert incoming.status_code == 200 and [s["id"] for s in incoming.json()["sessions"]] == [first_id]
        accepted, seconds = timed(first_agent.post, f"{base}/api/sessions/{first_id}/accept")
        assert accepted.status_code == 200, accepted.text
        assert seconds < 5, f"accept took {seconds:.1f} s without Redis"
        lost_race, _ = timed(second_agent.post, f"{base}/api/sessions/{first_id}/accept")
        assert lost_race.status_code == 409 and lost_race.json()["error"]["code"] == "SESSION_ALREADY_ACCEPTED"
        start = {"device_id": str(kiosks[1].device_id), "customer_locale": "fr-FR"}
        second, seconds = timed(second_kiosk.post, f"{base}/api/public/sessions/start", json=start)
        assert second.status_code == 201 and seconds < 5, second.text
        ended, _ = timed(first_agent.post, f"{base}/api/sessions/{first_id}/end", json={"reason": "completed"})
        assert ended.status_code == 200, ended.text
        poll, _ = timed(first_kiosk.get, f"{base}/api/public/sessions/{first_id}/status")
        assert poll.json()["status"] == "completed"

        committed = DomainEvent.objects.filter(name__in=EVENTS).count()
        assert committed == 4  # two starts, one accept, one end: all committed while Redis was down

        redis.start()  # ---- Redis is back; the periodic sweep (as beat runs it) sends the backlog
        assert dispatch_due_webhooks() >= 1
        delivered = {
            json.loads(r.body)["data"]["session_public_id"] + ":" + json.loads(r.body)["event"]
            for r in receiver.received
        }
        assert len(delivered) == committed
        assert not WebhookDelivery.objects.exclude(status="succeeded").exists()
        assert agent_session(base, agents[1].email).get(f"{base}/api/sessions/incoming").status_code == 200
    redis.stop()
