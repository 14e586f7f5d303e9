"""Owner API agents (agents:write): the agents with their capacity and sessions held, an agent's
own number of customers at once, the owner's number; bad input is 422, another owner's agent 404."""

from apps.accounts.models import User
from apps.routing.models import RoutingSettings
from tests import factories
from tests.support.auth import error_of


def test_the_agents_carry_their_capacity_and_sessions_held(api, owner, business, other_owner):
    agent = factories.AgentFactory(owner=owner, name="Ann")
    factories.AgentFactory(owner=other_owner)
    factories.SessionFactory(kiosk=factories.KioskFactory(business=business), agent=agent, status="active")
    response = api.get("/api/owner/agents")
    assert response.status_code == 200, response.content
    assert response.json()["data"] == [
        {
            "id": agent.pk,
            "name": "Ann",
            "email": agent.email,
            "agent_status": "available",
            "capacity": 1,
            "own_capacity": None,
            "sessions_held": 1,
        }
    ]


def test_an_agents_own_number_is_set_and_cleared(api, owner, other_owner):
    agent = factories.AgentFactory(owner=owner)
    response = api.put(f"/api/owner/agents/{agent.pk}/capacity", {"capacity": 3}, content_type="application/json")
    assert response.status_code == 200, response.content
    assert (response.json()["data"]["capacity"], response.json()["data"]["own_capacity"]) == (3, 3)
    assert User.objects.get(pk=agent.pk).agent_capacity == 3
    response = api.put(f"/api/owner/agents/{agent.pk}/capacity", {"capacity": None}, content_type="application/json")
    assert (response.json()["data"]["capacity"], response.json()["data"]["own_capacity"]) == (1, None)
    for bad in ({"capacity": 0}, {"capacity": 11}, {"capacity": "many"}, {}):
        response = api.put(f"/api/owner/agents/{agent.pk}/capacity", bad, content_type="application/json")
        assert "capacity" in error_of(response, 422, "VALIDATION_ERROR")["details"]
    stranger = factories.AgentFactory(owner=other_owner)
    response = api.put(f"/api/owner/agents/{stranger.pk}/capacity", {"capacity": 2}, content_type="application/json")
    error_of(response, 404, "NOT_FOUND")
    assert User.objects.get(pk=stranger.pk).agent_capacity is None


def test_the_owners_number_applies_to_agents_without_their_own(api, owner):
    agent = factories.AgentFactory(owner=owner)
    assert api.get("/api/owner/agents/capacity").json()["data"] == {"agent_capacity": 1, "own": False}
    response = api.put("/api/owner/agents/capacity", {"agent_capacity": 3}, content_type="application/json")
    assert response.json()["data"] == {"agent_capacity": 3, "own": True}
    assert api.get("/api/owner/agents").json()["data"][0]["capacity"] == 3
    assert RoutingSettings.objects.get(owner=owner).offer_size == 3  # the other settings kept
    api.put(f"/api/owner/agents/{agent.pk}/capacity", {"capacity": 2}, content_type="application/json")
    assert api.get("/api/owner/agents").json()["data"][0]["capacity"] == 2
    response = api.put("/api/owner/agents/capacity", {"agent_capacity": 99}, content_type="application/json")
    assert "agent_capacity" in error_of(response, 422, "VALIDATION_ERROR")["details"]
    response = api.put("/api/owner/agents/capacity", {"agent_capacity": None}, content_type="application/json")
    assert response.json()["data"] == {"agent_capacity": 1, "own": False}
