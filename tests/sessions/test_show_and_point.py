"""Show to customer (POST /api/sessions/{id}/show) and point at an item
(POST /api/public/sessions/{id}/point): who may say it, about which item, and what goes out on
which channel. Over a real WebSocket in tests/realtime/test_show_and_point_live.py."""

import pytest
from django.utils import timezone

from apps.sessions.models import Assignment
from tests import factories
from tests.conftest import AgentClient, kiosk_client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def item(business):
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    return factories.MenuItemFactory(category=category, name="Classic burger")


@pytest.fixture
def served(kiosk, agent):
    return factories.SessionFactory(kiosk=kiosk, status="active", agent=agent, accepted_at=timezone.now())


def show(client, session_id, item_id):
    return client.post(f"/api/sessions/{session_id}/show", {"item_id": str(item_id)}, content_type="application/json")


def point(client, session_id, item_id):
    return client.post(
        f"/api/public/sessions/{session_id}/point", {"item_id": str(item_id)}, content_type="application/json"
    )


@pytest.mark.parametrize("status", ["active", "payment"])
def test_the_agent_shows_an_item_on_the_kiosks_channel(agent_client, served, item, broadcasts, status):
    served.status = status
    served.save(update_fields=["status"])
    response = show(agent_client, served.public_id, item.pk)
    assert response.status_code == 200, response.content
    assert response.json() == {"session_id": served.public_id, "item_id": str(item.pk)}
    assert [(b.channels, b.event, b.data) for b in broadcasts] == [
        (
            [f"private-kiosk.{served.kiosk_id}"],
            "MenuItemShown",
            {"session_id": served.public_id, "item_id": str(item.pk)},
        )
    ]


def test_the_customer_points_at_an_item_on_the_agents_channel(kiosk_client, served, item, agent, broadcasts):
    response = point(kiosk_client, served.public_id, item.pk)
    assert response.status_code == 200, response.content
    assert response.json() == {"session_id": served.public_id, "item_id": str(item.pk)}
    body = {"session_id": served.public_id, "item_id": str(item.pk), "name": "Classic burger"}
    assert [(b.channels, b.event, b.data) for b in broadcasts] == [
        ([f"private-agent.{agent.pk}"], "MenuItemPointed", body)
    ]


def test_nothing_changes_in_the_cart_or_the_session(agent_client, kiosk_client, served, item, broadcasts):
    assert show(agent_client, served.public_id, item.pk).status_code == 200
    assert point(kiosk_client, served.public_id, item.pk).status_code == 200
    served.refresh_from_db()
    assert served.status == "active"
    assert not hasattr(served, "order") or served.order is None


def test_another_owners_session_and_another_agents_are_404(served, item, other_business, owner, broadcasts):
    stranger = factories.AgentFactory(owner=other_business.owner)
    colleague = factories.AgentFactory(owner=owner)
    for someone in (stranger, colleague):
        client = AgentClient()
        assert client.sign_in(someone.email).status_code == 200
        response = show(client, served.public_id, item.pk)
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "SESSION_NOT_FOUND"
    other_kiosk = factories.KioskFactory(business=other_business)
    response = point(kiosk_client_for(other_kiosk), served.public_id, item.pk)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "SESSION_NOT_FOUND"
    assert broadcasts == []


def test_an_item_of_another_business_or_none_is_refused(agent_client, kiosk_client, served, other_business, broadcasts):
    foreign = factories.MenuItemFactory(
        category=factories.CategoryFactory(catalog=factories.CatalogFactory(business=other_business))
    )
    for item_id in (foreign.pk, 999_999_999):
        response = show(agent_client, served.public_id, item_id)
        assert response.status_code == 422
        assert response.json()["error"]["code"] == "VALIDATION_ERROR"
        assert "item_id" in response.json()["error"]["details"]
        response = point(kiosk_client, served.public_id, item_id)
        assert response.status_code == 422
        assert "item_id" in response.json()["error"]["details"]
    for bad in ("", "burger", "-1"):
        response = agent_client.post(
            f"/api/sessions/{served.public_id}/show", {"item_id": bad}, content_type="application/json"
        )
        assert response.status_code == 422
        assert "item_id" in response.json()["error"]["details"]
    response = agent_client.post(f"/api/sessions/{served.public_id}/show", {}, content_type="application/json")
    assert response.status_code == 422
    assert broadcasts == []


def test_an_inactive_item_is_refused(agent_client, served, item, broadcasts):
    item.active = False
    item.save(update_fields=["active"])
    assert show(agent_client, served.public_id, item.pk).status_code == 422
    assert broadcasts == []


def test_only_while_an_agent_serves(agent_client, kiosk_client, kiosk, agent, item, broadcasts):
    waiting = factories.SessionFactory(kiosk=kiosk, status="pending")
    response = point(kiosk_client, waiting.public_id, item.pk)
    assert (response.status_code, response.json()["error"]["code"]) == (409, "INVALID_STATE")
    waiting.status, waiting.agent, waiting.accepted_at = "completed", agent, timezone.now()
    waiting.ended_at, waiting.end_reason = timezone.now(), "completed"
    waiting.save()
    response = point(kiosk_client, waiting.public_id, item.pk)
    assert (response.status_code, response.json()["error"]["code"]) == (409, "SESSION_ALREADY_ENDED")
    response = show(agent_client, waiting.public_id, item.pk)
    assert (response.status_code, response.json()["error"]["code"]) == (409, "SESSION_ALREADY_ENDED")
    assert broadcasts == []


def test_a_handed_over_session_is_403_for_its_former_agent(agent_client, served, item, agent, owner, broadcasts):
    colleague = factories.AgentFactory(owner=owner)
    Assignment.objects.create(
        session=served, agent=agent, via="accept", started_at=served.accepted_at, ended_at=timezone.now()
    )
    served.agent = colleague
    served.save(update_fields=["agent"])
    response = show(agent_client, served.public_id, item.pk)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "SESSION_NOT_OWNED"
    assert broadcasts == []
