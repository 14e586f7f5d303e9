"""POST /api/agent/status: four values, 422 otherwise, and last_seen_at moves."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.accounts.models import User


@pytest.mark.parametrize("status", ["available", "busy", "break", "offline"])
def test_each_status_is_accepted_and_touches_last_seen(agent, agent_client, status):
    User.objects.filter(pk=agent.pk).update(last_seen_at=timezone.now() - timedelta(days=1))
    response = agent_client.post("/api/agent/status", {"status": status})
    assert response.status_code == 200 and response.json() == {"ok": True}
    agent.refresh_from_db()
    assert agent.agent_status == status
    assert (timezone.now() - agent.last_seen_at).total_seconds() < 5


@pytest.mark.parametrize("body", [{"status": "Available"}, {"status": "lunch"}, {}, {"status": None}])
def test_invalid_status_answers_422(agent, agent_client, body):
    response = agent_client.post("/api/agent/status", body)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    agent.refresh_from_db()
    assert agent.agent_status == "available"


def test_status_change_needs_the_xsrf_header(agent, agent_client):
    response = agent_client.post("/api/agent/status", {"status": "break"}, headers={"X-XSRF-TOKEN": "nope"})
    assert response.status_code == 419
    assert response.json()["error"]["code"] == "CSRF_MISMATCH"
