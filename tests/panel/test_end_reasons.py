"""The dashboard says in words how sessions ended, and a customer's own cancel and an unanswered
inactivity prompt are counted apart."""

import pytest

from tests import factories
from tests.conftest import kiosk_client_for


@pytest.fixture
def kiosk_client(kiosk):
    return kiosk_client_for(kiosk)


def start(kiosk, client) -> str:
    response = client.post(
        "/api/public/sessions/start",
        {"device_id": str(kiosk.device_id), "customer_locale": "en-US"},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    return response.json()["session_id"]


def test_a_kiosk_cancel_says_whether_the_customer_or_inactivity_ended_it(kiosk, kiosk_client):
    first = start(kiosk, kiosk_client)
    assert kiosk_client.post(f"/api/public/sessions/{first}/cancel").status_code == 200
    second = start(kiosk, kiosk_client)
    response = kiosk_client.post(
        f"/api/public/sessions/{second}/cancel", {"reason": "inactivity"}, content_type="application/json"
    )
    assert response.status_code == 200
    reasons = [kiosk_client.get(f"/api/public/sessions/{sid}/status").json()["end_reason"] for sid in (first, second)]
    assert reasons == ["kiosk_cancelled", "kiosk_inactivity"]


def test_an_unknown_cancel_reason_is_422_and_the_session_stays_open(kiosk, kiosk_client):
    session_id = start(kiosk, kiosk_client)
    response = kiosk_client.post(
        f"/api/public/sessions/{session_id}/cancel", {"reason": "bored"}, content_type="application/json"
    )
    assert response.status_code == 422 and response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert kiosk_client.get(f"/api/public/sessions/{session_id}/status").json()["status"] == "pending"


def test_the_dashboard_counts_each_end_apart_in_words(owner_client, kiosk):
    from django.utils import timezone

    for reason, count in (("kiosk_cancelled", 2), ("kiosk_inactivity", 1), ("customer_abandoned", 1), ("timed_out", 1)):
        for _ in range(count):
            factories.SessionFactory(kiosk=kiosk, status="abandoned", ended_at=timezone.now(), end_reason=reason)
    html = owner_client.get("/panel/").content.decode()
    for raw in ("kiosk_cancelled", "kiosk_inactivity", "customer_abandoned", "timed_out"):
        assert f">{raw}<" not in html
    assert 'data-reason="kiosk_cancelled">Customer cancelled at the kiosk<' in html
    assert 'data-reason="kiosk_inactivity">No answer at the kiosk (inactivity)<' in html
    assert 'data-reason="timed_out">No agent answered in time<' in html
    sessions = owner_client.get("/panel/sessions").content.decode()
    assert "Customer cancelled at the kiosk" in sessions and "Kiosk Cancelled" not in sessions
