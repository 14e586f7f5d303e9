"""Which real-time events the services send, to whom, with what payload (docs/realtime.md)."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import AgentStatus
from apps.billing.domain_events import PaymentCancelled
from apps.core import events
from apps.kiosks import services as kiosk_services
from apps.kiosks.models import Kiosk
from apps.sessions import services as session_services
from tests import factories


@pytest.fixture
def routed(django_capture_on_commit_callbacks):
    """Run what each request queues on commit (the router's dispatch), as the job runner does."""

    def run(call):
        with django_capture_on_commit_callbacks(execute=True):
            return call()

    return run


def of(broadcasts, event):
    return [(channels, data) for channels, name, data in broadcasts if name == event]


def start(kiosk_client, kiosk):
    response = kiosk_client.post(
        "/api/public/sessions/start",
        {"device_id": str(kiosk.device_id), "customer_locale": "en-US"},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    return response.json()["session_id"]


def test_a_new_session_is_offered_to_the_signed_in_available_agents_of_its_pool_only(
    broadcasts, routed, kiosk, kiosk_client, owner, agent, settings
):
    # An hour's window: the agents seen at the test's start stay signed in however slow the
    # machine is (with the 10 s default, a loaded run aged `agent` out before the start).
    settings.AGENT_SIGNED_IN_SECONDS = 3600
    pool = factories.AgentFactory(owner=None)  # the platform's shared agents
    factories.AgentFactory(owner=owner, agent_status=AgentStatus.BUSY)
    factories.AgentFactory(owner=owner, agent_status=AgentStatus.BREAK)
    factories.AgentFactory(owner=owner, is_active=False)
    factories.AgentFactory(owner=owner, last_seen_at=timezone.now() - timedelta(seconds=3601))  # not signed in
    factories.AgentFactory()  # another owner's agent
    factories.PanelUserFactory(owner=owner)
    session_id = routed(lambda: start(kiosk_client, kiosk))
    offered = of(broadcasts, "SessionIncoming")
    assert sorted(channels[0] for channels, _ in offered) == sorted(
        [f"private-agent.{agent.pk}", f"private-agent.{pool.pk}"]
    )
    data = offered[0][1]
    assert data["session"]["id"] == session_id
    assert data["session"]["kiosk"] == {"id": str(kiosk.pk), "name": kiosk.name, "location": kiosk.location}
    assert data["session"]["waiting_seconds"] == 0
    assert data["session"]["customer_locale"] == "en-US"
    assert data["session"]["offer_expires_at"].endswith("Z")


def test_session_incoming_matches_the_incoming_list_entry(broadcasts, routed, kiosk, kiosk_client, agent, agent_client):
    routed(lambda: start(kiosk_client, kiosk))
    [(_, data)] = of(broadcasts, "SessionIncoming")
    [listed] = agent_client.get("/api/sessions/incoming").json()["sessions"]
    assert {**listed, "waiting_seconds": 0} == data["session"]


def test_accept_tells_the_other_agents_offered_it_and_the_kiosk(
    broadcasts, routed, kiosk, kiosk_client, owner, agent, agent_client
):
    colleague = factories.AgentFactory(owner=owner)
    factories.AgentFactory(owner=owner, agent_status=AgentStatus.BREAK)  # not offered: not told
    session_id = routed(lambda: start(kiosk_client, kiosk))
    assert routed(lambda: agent_client.post(f"/api/sessions/{session_id}/accept")).status_code == 200
    [(channels, data)] = of(broadcasts, "SessionClaimed")
    assert channels == [f"private-agent.{colleague.pk}"]
    assert data == {"session_id": session_id, "status": "active", "agent_id": str(agent.pk)}
    statuses = of(broadcasts, "SessionStatusChanged")
    assert [data["status"] for _, data in statuses] == ["pending", "active"]
    channels, active = statuses[-1]
    assert channels == [f"private-kiosk.{kiosk.pk}"]
    assert active == kiosk_client.get(f"/api/public/sessions/{session_id}/status").json()
    assert active["agent"]["id"] == str(agent.pk)


def test_every_way_out_tells_the_kiosk(broadcasts, kiosk, kiosk_client, agent, agent_client):
    session_id = start(kiosk_client, kiosk)
    agent_client.post(f"/api/sessions/{session_id}/accept")
    response = agent_client.post(f"/api/sessions/{session_id}/end", {"reason": "completed", "notes": ""})
    assert response.status_code == 200
    *_, (channels, ended) = of(broadcasts, "SessionStatusChanged")
    assert channels == [f"private-kiosk.{kiosk.pk}"]
    assert (ended["status"], ended["end_reason"]) == ("completed", "completed")
    assert not of(broadcasts, "SessionWithdrawn")  # it was not waiting any more


def test_a_waiting_session_that_ends_is_withdrawn_from_dashboards(broadcasts, routed, kiosk, kiosk_client, agent):
    session_id = routed(lambda: start(kiosk_client, kiosk))
    assert kiosk_client.post(f"/api/public/sessions/{session_id}/cancel").status_code == 200
    [(channels, data)] = of(broadcasts, "SessionWithdrawn")
    assert channels == [f"private-agent.{agent.pk}"]
    assert data == {"session_id": session_id, "status": "abandoned", "reason": "kiosk_cancelled"}
    assert of(broadcasts, "SessionStatusChanged")[-1][1]["status"] == "abandoned"


def test_the_timeout_sweep_tells_the_kiosk(broadcasts, kiosk):
    factories.SessionFactory(kiosk=kiosk, created_at=timezone.now() - timedelta(seconds=181))
    assert session_services.sessions_abandon_stale(older_than_seconds=180) == 1
    [(channels, data)] = of(broadcasts, "SessionStatusChanged")
    assert channels == [f"private-kiosk.{kiosk.pk}"]
    assert (data["status"], data["end_reason"]) == ("abandoned", "timed_out")


def test_each_cart_post_sends_the_order_object_to_the_kiosk(
    broadcasts, kiosk, kiosk_client, agent, agent_client, business
):
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    item = factories.MenuItemFactory(category=category, price_cents=500)
    pending = factories.SessionFactory(kiosk=kiosk)
    session_services.session_accept(public_id=pending.public_id, agent=agent)
    line = {"menu_item_id": str(item.pk), "quantity": 2, "modifier_option_ids": []}
    response = agent_client.post("/api/orders", {"session_id": pending.public_id, "lines": [line]})
    assert response.status_code == 200, response.content
    [(channels, order)] = of(broadcasts, "OrderUpdated")
    assert channels == [f"private-kiosk.{kiosk.pk}"]
    kiosk_read = kiosk_client.get(f"/api/public/sessions/{pending.public_id}/order").json()
    # The kiosk's read adds the receipt's address, null until paid; the message is the order.
    assert kiosk_read.pop("receipt_url") is None
    assert kiosk_read.pop("receipt_card_lines") == []
    assert order == response.json() == kiosk_read


def test_kiosk_online_and_offline_go_to_the_owners_presence_channel(broadcasts, kiosk, kiosk_client, owner):
    Kiosk.objects.filter(pk=kiosk.pk).update(last_seen_at=timezone.now() - timedelta(seconds=91))
    assert kiosk_services.kiosks_mark_offline() == 1
    assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 200
    changes = of(broadcasts, "KioskStatusChanged")
    assert [channels for channels, _ in changes] == [[f"presence-owner.{owner.pk}"]] * 2
    assert [data["online"] for _, data in changes] == [False, True]
    assert changes[0][1]["kiosk"] == {"id": str(kiosk.pk), "name": kiosk.name, "location": kiosk.location}
    assert changes[1][1]["changed_at"].endswith("Z")


def test_payment_events_of_billing_go_through_the_broadcast_api(monkeypatch, kiosk, django_capture_on_commit_callbacks):
    calls = []
    monkeypatch.setattr("apps.realtime.broadcast.send_now", calls.append)
    session = factories.SessionFactory(kiosk=kiosk)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        events.emit(PaymentCancelled(session))
    calls = [(m["channels"], m["event"], m["data"]) for m in calls]
    assert calls == [([f"private-kiosk.{kiosk.pk}"], "PaymentCancelled", {"session_id": session.public_id})]
