"""The whole kiosk-start -> incoming -> accept -> end flow over HTTP."""

from apps.core.models import DomainEvent
from apps.sessions.models import Session


def test_kiosk_start_incoming_accept_end(kiosk, kiosk_client, agent, agent_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # the router's dispatch, queued on commit
        started = kiosk_client.post(
            "/api/public/sessions/start",
            {"device_id": str(kiosk.device_id), "customer_locale": "en-US"},
            content_type="application/json",
        )
    assert started.status_code == 201, started.content
    session_id = started.json()["session_id"]
    assert started.json()["status"] == "pending"
    assert started.json()["poll_url"] == f"/api/public/sessions/{session_id}/status"

    incoming = agent_client.get("/api/sessions/incoming").json()["sessions"]
    assert [s["id"] for s in incoming] == [session_id]
    assert incoming[0]["kiosk"] == {"id": str(kiosk.pk), "name": kiosk.name, "location": kiosk.location}

    accepted = agent_client.post(f"/api/sessions/{session_id}/accept")
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["session"]["status"] == "active"
    assert accepted.json()["session"]["video_channel"] == session_id

    status = kiosk_client.get(f"/api/public/sessions/{session_id}/status").json()
    assert status["status"] == "active"
    assert status["agent"]["id"] == str(agent.pk)

    ended = agent_client.post(f"/api/sessions/{session_id}/end", {"reason": "completed", "notes": "two burgers"})
    assert ended.status_code == 200, ended.content
    body = ended.json()["session"]
    assert body["status"] == "completed"
    assert body["duration_seconds"] >= 0
    assert Session.objects.get(public_id=session_id).notes == "two burgers"
    names = list(DomainEvent.objects.order_by("pk").values_list("name", flat=True))
    assert names == ["session.started", "session.accepted", "session.ended"]
