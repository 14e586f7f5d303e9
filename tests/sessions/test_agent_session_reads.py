"""The agent's own sessions, for the dashboard: GET /api/sessions/current (the live session and its
order, to restore after a reload), GET /api/sessions/{id} (one session it accepted, any status),
GET /api/sessions/mine (accepted since a time, newest first, paginated). Another agent's or
another owner's session is 404; signed out is 401."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from apps.orders import services as order_services
from apps.sessions import ending
from apps.sessions import services as session_services
from apps.sessions.models import Assignment
from tests import factories
from tests.support.auth import error_of


def accepted(kiosk, agent, **fields):
    pending = factories.SessionFactory(kiosk=kiosk, **fields)
    return session_services.session_accept(public_id=pending.public_id, agent=agent)


@pytest.fixture
def burger(business):
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    item = factories.MenuItemFactory(category=category, name="Burger", price_cents=1000)
    group = factories.ModifierGroupFactory(item=item, name="Bun", required=True, min=1, max=1)
    return item, factories.ModifierOptionFactory(group=group, name="Brioche", price_cents=50)


def test_current_is_null_without_a_live_session(agent_client):
    assert agent_client.get("/api/sessions/current").json() == {
        "session": None,
        "order": None,
        "payment": None,
        "held": [],
    }


def test_current_restores_the_live_session_with_a_resendable_cart(agent, agent_client, kiosk, burger):
    item, brioche = burger
    session = accepted(kiosk, agent)
    line = {"menu_item_id": str(item.pk), "quantity": 2, "modifier_option_ids": [str(brioche.pk)], "notes": "well"}
    order_services.cart_replace(agent=agent, session_public_id=session.public_id, lines=[line])

    body = agent_client.get("/api/sessions/current").json()
    assert body["session"]["id"] == session.public_id
    assert body["session"]["status"] == "active"
    assert body["session"]["video_channel"] == session.public_id
    assert body["session"]["kiosk"] == {"id": str(kiosk.pk), "name": kiosk.name, "location": kiosk.location}
    assert body["session"]["ended_at"] is None and body["session"]["duration_seconds"] is None
    [out] = body["order"]["lines"]
    assert out["modifier_option_ids"] == [str(brioche.pk)]
    assert out["modifiers"] == [{"group": "Bun", "value": "Brioche"}]
    assert (out["quantity"], out["notes"], body["order"]["subtotal_cents"]) == (2, "well", 2100)

    # What it says can be posted back unchanged (replace semantics).
    again = {k: out[k] for k in ("menu_item_id", "quantity", "modifier_option_ids", "notes")}
    resent = agent_client.post("/api/orders", {"session_id": session.public_id, "lines": [again]})
    assert resent.status_code == 200, resent.content
    assert resent.json()["subtotal_cents"] == 2100


def test_current_ignores_ended_sessions_and_other_agents(agent, agent_client, kiosk):
    mine = accepted(kiosk, agent)
    ending.session_end(public_id=mine.public_id, agent=agent, reason="completed", notes="")
    accepted(factories.KioskFactory(business=kiosk.business), factories.AgentFactory(owner=agent.owner))
    assert agent_client.get("/api/sessions/current").json() == {
        "session": None,
        "order": None,
        "payment": None,
        "held": [],
    }


def test_detail_shows_an_ended_session_with_its_outcome(agent, agent_client, kiosk):
    session = accepted(kiosk, agent)
    ending.session_end(public_id=session.public_id, agent=agent, reason="customer_abandoned", notes="")
    body = agent_client.get(f"/api/sessions/{session.public_id}").json()
    assert body["session"]["status"] == "abandoned"
    assert body["session"]["end_reason"] == "customer_abandoned"
    assert isinstance(body["session"]["duration_seconds"], int)
    assert body["order"]["lines"] == [] and body["order"]["total_cents"] == 0


def test_detail_is_404_for_waiting_other_agents_and_other_owners_sessions(agent, agent_client, kiosk, other_business):
    waiting = factories.SessionFactory(kiosk=factories.KioskFactory(business=kiosk.business))
    colleagues = accepted(kiosk, factories.AgentFactory(owner=agent.owner))
    other_kiosk = factories.KioskFactory(business=other_business)
    theirs = accepted(other_kiosk, factories.AgentFactory(owner=other_business.owner))
    for session in (waiting, colleagues, theirs):
        error_of(agent_client.get(f"/api/sessions/{session.public_id}"), 404, "SESSION_NOT_FOUND")
    error_of(agent_client.get("/api/sessions/ses_doesnotexist"), 404, "SESSION_NOT_FOUND")


def test_mine_lists_todays_sessions_newest_first_with_totals(agent, agent_client, kiosk, burger, other_business):
    item, brioche = burger
    now = timezone.now()
    yesterday = accepted(factories.KioskFactory(business=kiosk.business), agent)
    yesterday.accepted_at = now - timedelta(days=2)
    yesterday.save(update_fields=["accepted_at"])
    Assignment.objects.filter(session=yesterday).update(started_at=yesterday.accepted_at)  # served then too
    ending.session_end(public_id=yesterday.public_id, agent=agent, reason="completed", notes="")
    first = accepted(kiosk, agent)
    line = {"menu_item_id": str(item.pk), "quantity": 1, "modifier_option_ids": [str(brioche.pk)], "notes": ""}
    order_services.cart_replace(agent=agent, session_public_id=first.public_id, lines=[line])
    ending.session_end(public_id=first.public_id, agent=agent, reason="completed", notes="")
    second = accepted(kiosk, agent)
    accepted(factories.KioskFactory(business=other_business), factories.AgentFactory(owner=other_business.owner))

    body = agent_client.get("/api/sessions/mine").json()
    assert [s["id"] for s in body["data"]] == [second.public_id, first.public_id]
    assert (body["total"], body["next_offset"]) == (2, None)
    latest, earlier = body["data"]
    assert latest["status"] == "active" and latest["total_cents"] is None
    assert earlier["status"] == "completed" and earlier["end_reason"] == "completed"
    assert earlier["total_cents"] == 1142 and earlier["currency"] == kiosk.business.currency  # 10.50 + 8.75 %
    assert earlier["kiosk"]["name"] == kiosk.name

    since = (now - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
    page = agent_client.get("/api/sessions/mine", {"since": since, "limit": 2}).json()
    assert [s["id"] for s in page["data"]] == [second.public_id, first.public_id]
    assert (page["total"], page["next_offset"]) == (3, 2)
    rest = agent_client.get("/api/sessions/mine", {"since": since, "limit": 2, "offset": 2}).json()
    assert [s["id"] for s in rest["data"]] == [yesterday.public_id] and rest["next_offset"] is None


@pytest.mark.parametrize(
    "query", [{"since": "yesterday"}, {"limit": "0"}, {"limit": "101"}, {"offset": "-1"}, {"limit": "x"}]
)
def test_mine_refuses_bad_queries_with_422(agent_client, query):
    error = error_of(agent_client.get("/api/sessions/mine", query), 422, "VALIDATION_ERROR")
    assert set(error["details"]) <= {"since", "limit", "offset"} and error["details"]


@pytest.mark.parametrize("path", ["/api/sessions/current", "/api/sessions/mine", "/api/sessions/ses_x"])
def test_reads_need_a_signed_in_agent(db, path):
    error_of(Client().get(path), 401, "UNAUTHENTICATED")


def test_reads_answer_401_after_sign_out(agent, agent_client, kiosk):
    session = accepted(kiosk, agent)
    assert agent_client.post("/api/logout").status_code == 204
    for path in ("/api/sessions/current", "/api/sessions/mine", f"/api/sessions/{session.public_id}"):
        error_of(agent_client.get(path), 401, "UNAUTHENTICATED")


def test_current_lists_every_held_session_the_conversation_first(agent, agent_client, kiosk, settings):
    """An agent serving several customers restores them all from GET /api/sessions/current's
    `held`: the video conversation first (also `session`), then the chat, each with its order
    and payment; another agent's session is not among them."""
    settings.ROUTING_AGENT_CAPACITY = 3
    kiosks = [kiosk, *(factories.KioskFactory(business=kiosk.business) for _ in range(2))]
    chat = accepted(kiosks[0], agent, medium="chat")
    video = accepted(kiosks[1], agent)
    accepted(kiosks[2], factories.AgentFactory(owner=agent.owner))

    body = agent_client.get("/api/sessions/current").json()
    assert [(held["session"]["id"], held["session"]["medium"]) for held in body["held"]] == [
        (video.public_id, "video"),
        (chat.public_id, "chat"),
    ]
    assert body["session"] == body["held"][0]["session"]
    assert all(set(held) == {"session", "order", "payment"} for held in body["held"])
