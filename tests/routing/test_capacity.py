"""Agents who serve more than one customer: one video conversation and C sessions in all, C from
the agent, else its owner, else ROUTING_AGENT_CAPACITY; the two refusals past one seat; what
GET /api/user and the Queue page say; a seat opening is offered at once."""

from django.db import transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.routing import offers
from apps.routing.models import Offer, OfferStatus, RoutingSettings
from apps.routing.routing_settings import routing_for_owner
from apps.sessions import services as session_services
from apps.sessions.models import Session
from tests import factories
from tests.conftest import AgentClient, kiosk_client_for


def _capacity(owner, capacity: int) -> None:
    routing = routing_for_owner(owner.pk)
    RoutingSettings.objects.update_or_create(
        owner=owner,
        defaults={
            "offer_size": routing.offer_size,
            "offer_seconds": routing.offer_seconds,
            "any_language_after_seconds": routing.any_language_after_seconds,
            "misses_before_break": routing.misses_before_break,
            "self_service_after_seconds": routing.self_service_after_seconds,
            "agent_capacity": capacity,
        },
    )


def _waiting(business, medium="video", **fields) -> Session:
    return factories.SessionFactory(kiosk=factories.KioskFactory(business=business), medium=medium, **fields)


def _to_payment(session: Session) -> None:
    """What the payment flow does once its intent exists (apps/billing/services/payments.py)."""
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        session_services.session_move(session=locked, action="send_to_payment")


def _code(response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def test_at_one_seat_nothing_changes(agent_client, agent, business):
    first, second = _waiting(business), _waiting(business, medium="chat")
    assert agent_client.post(f"/api/sessions/{first.public_id}/accept").status_code == 200
    assert _code(agent_client.post(f"/api/sessions/{second.public_id}/accept")) == (409, "AGENT_HAS_ACTIVE_SESSION")
    assert User.objects.get(pk=agent.pk).agent_status == "busy"
    body = agent_client.get("/api/user").json()
    assert (body["capacity"], body["sessions_held"]) == (1, 1)


def test_one_video_conversation_and_c_sessions_in_all(agent_client, agent, owner, business):
    _capacity(owner, 3)
    video, other_video = _waiting(business), _waiting(business)
    chat, another_chat, third_chat = (_waiting(business, medium="chat") for _ in range(3))
    assert agent_client.post(f"/api/sessions/{video.public_id}/accept").status_code == 200
    assert User.objects.get(pk=agent.pk).agent_status == "available"  # a seat left: still offered customers

    refused = agent_client.post(f"/api/sessions/{other_video.public_id}/accept")
    assert _code(refused) == (409, "AGENT_IN_CONVERSATION")
    assert "video conversation" in refused.json()["error"]["message"]
    assert refused.json()["error"]["details"] == {"capacity": 3, "sessions_held": 1}

    assert agent_client.post(f"/api/sessions/{chat.public_id}/accept").status_code == 200
    _to_payment(video)  # the video seat is free; the session still takes a seat
    assert agent_client.post(f"/api/sessions/{another_chat.public_id}/accept").status_code == 200
    assert User.objects.get(pk=agent.pk).agent_status == "busy"  # every seat taken

    full = agent_client.post(f"/api/sessions/{third_chat.public_id}/accept")
    assert _code(full) == (409, "AGENT_AT_CAPACITY")
    assert "(3)" in full.json()["error"]["message"]
    assert _code(agent_client.post(f"/api/sessions/{other_video.public_id}/accept")) == (409, "AGENT_AT_CAPACITY")
    assert Session.objects.get(pk=third_chat.pk).status == "pending"
    body = agent_client.get("/api/user").json()
    assert (body["capacity"], body["sessions_held"], body["agent_status"]) == (3, 3, "busy")

    with transaction.atomic():  # one ends: a seat opens, the agent is available again
        locked = Session.objects.select_for_update().get(pk=chat.pk)
        session_services.session_end_locked(session=locked, agent=agent, reason="completed", notes="")
    assert User.objects.get(pk=agent.pk).agent_status == "available"
    assert agent_client.post(f"/api/sessions/{other_video.public_id}/accept").status_code == 200


def test_the_agents_own_number_comes_before_its_owners(agent_client, agent, owner, business, settings):
    settings.ROUTING_AGENT_CAPACITY = 2
    assert agent_client.get("/api/user").json()["capacity"] == 2  # no setting: the environment's
    _capacity(owner, 3)
    assert agent_client.get("/api/user").json()["capacity"] == 3
    User.objects.filter(pk=agent.pk).update(agent_capacity=1)
    assert agent_client.get("/api/user").json()["capacity"] == 1
    first, second = _waiting(business, medium="chat"), _waiting(business, medium="chat")
    assert agent_client.post(f"/api/sessions/{first.public_id}/accept").status_code == 200
    assert _code(agent_client.post(f"/api/sessions/{second.public_id}/accept")) == (409, "AGENT_HAS_ACTIVE_SESSION")


def test_a_lost_accept_past_capacity_says_so_without_locks(agent_client, agent, owner, business):
    """The lock-free refusal of a session already taken keeps the locked path's order."""
    _capacity(owner, 2)
    mine, chat = _waiting(business), _waiting(business, medium="chat")
    taken = _waiting(business)
    other = AgentClient()
    other.sign_in(factories.AgentFactory(owner=owner).email)
    assert other.post(f"/api/sessions/{taken.public_id}/accept").status_code == 200
    assert agent_client.post(f"/api/sessions/{mine.public_id}/accept").status_code == 200
    assert _code(agent_client.post(f"/api/sessions/{taken.public_id}/accept")) == (409, "AGENT_IN_CONVERSATION")
    assert agent_client.post(f"/api/sessions/{chat.public_id}/accept").status_code == 200
    assert _code(agent_client.post(f"/api/sessions/{taken.public_id}/accept")) == (409, "AGENT_AT_CAPACITY")
    ended = _waiting(business, medium="chat", status="abandoned", ended_at=timezone.now())
    assert _code(agent_client.post(f"/api/sessions/{ended.public_id}/accept")) == (409, "AGENT_AT_CAPACITY")


def test_taking_a_payment_back_during_another_conversation_is_refused(agent_client, agent, owner, business):
    """Refused before the processor is asked to cancel the intent: nothing changes."""
    _capacity(owner, 2)
    paying, next_video = _waiting(business), _waiting(business)
    assert agent_client.post(f"/api/sessions/{paying.public_id}/accept").status_code == 200
    _to_payment(paying)
    assert agent_client.post(f"/api/sessions/{next_video.public_id}/accept").status_code == 200
    refused = agent_client.post(f"/api/sessions/{paying.public_id}/payment/cancel")
    assert _code(refused) == (409, "AGENT_IN_CONVERSATION")
    assert "another video conversation" in refused.json()["error"]["message"]
    assert Session.objects.get(pk=paying.pk).status == "payment"


def test_a_kiosk_starts_a_chat_session_and_a_bad_medium_is_422(kiosk):
    client = kiosk_client_for(kiosk)
    body = {"device_id": str(kiosk.device_id), "customer_locale": "en-US", "medium": "chat"}
    response = client.post("/api/public/sessions/start", body, content_type="application/json")
    assert response.status_code == 201, response.content
    assert Session.objects.get(public_id=response.json()["session_id"]).medium == "chat"
    Session.objects.all().delete()
    response = client.post("/api/public/sessions/start", {**body, "medium": "fax"}, content_type="application/json")
    assert (response.status_code, response.json()["error"]["code"]) == (422, "VALIDATION_ERROR")
    assert "medium" in response.json()["error"]["details"]


def test_a_session_going_to_payment_offers_its_agent_the_next_video_customer(agent_client, agent, owner, business):
    """The seat opening runs the router on commit (the embedded jobs run it in-process)."""
    _capacity(owner, 2)
    serving, waiting = _waiting(business), _waiting(business)
    assert agent_client.post(f"/api/sessions/{serving.public_id}/accept").status_code == 200
    offers.offers_dispatch()
    assert not Offer.objects.filter(agent=agent, status=OfferStatus.LIVE).exists()  # in conversation
    _to_payment(serving)
    offers.offers_dispatch()  # what the job queued on commit runs (asserted live in test_capacity_live.py)
    assert Offer.objects.filter(agent=agent, session=waiting, status=OfferStatus.LIVE).exists()
    incoming = agent_client.get("/api/sessions/incoming").json()["sessions"]
    assert [session["id"] for session in incoming] == [waiting.public_id]


def test_the_queue_page_shows_each_agents_customers(owner_client, owner, agent, agent_client, business):
    _capacity(owner, 3)
    assert agent_client.post(f"/api/sessions/{_waiting(business).public_id}/accept").status_code == 200
    page = owner_client.get("/panel/queue/board").content.decode()
    assert "1 of 3" in page


def test_the_owner_sets_an_agents_number_on_the_agents_page(owner_client, owner, agent, other_business):
    response = owner_client.post(f"/panel/agents/{agent.pk}/capacity", {"capacity": "4"}, follow=True)
    assert "serves up to 4 customers at once" in response.content.decode()
    assert User.objects.get(pk=agent.pk).agent_capacity == 4
    page = owner_client.get("/panel/agents").content.decode()
    assert f'action="/panel/agents/{agent.pk}/capacity"' in page and 'value="4"' in page
    owner_client.post(f"/panel/agents/{agent.pk}/capacity", {"capacity": ""})
    assert User.objects.get(pk=agent.pk).agent_capacity is None
    refused = owner_client.post(f"/panel/agents/{agent.pk}/capacity", {"capacity": "11"}, follow=True)
    assert "a whole number from 1 to 10" in refused.content.decode()
    assert User.objects.get(pk=agent.pk).agent_capacity is None
    stranger = factories.AgentFactory(owner=other_business.owner)
    assert owner_client.post(f"/panel/agents/{stranger.pk}/capacity", {"capacity": "2"}).status_code == 404
    assert User.objects.get(pk=stranger.pk).agent_capacity is None


def test_the_owner_sets_customers_per_agent_on_the_settings_page(owner_client, owner):
    fields = {
        "routing-offer_size": 3,
        "routing-offer_seconds": 15,
        "routing-any_language_after_seconds": 30,
        "routing-misses_before_break": 2,
        "routing-self_service_after_seconds": 120,
    }
    owner_client.post("/panel/settings/routing", {**fields, "routing-agent_capacity": 3}, follow=True)
    assert routing_for_owner(owner.pk).agent_capacity == 3
    assert 'name="routing-agent_capacity"' in owner_client.get("/panel/settings").content.decode()
    response = owner_client.post("/panel/settings/routing", {**fields, "routing-agent_capacity": 0})
    assert response.status_code == 422 and routing_for_owner(owner.pk).agent_capacity == 3
    owner_client.post("/panel/settings/routing", fields, follow=True)  # empty: back to the default
    assert RoutingSettings.objects.get(owner=owner).agent_capacity is None
    assert routing_for_owner(owner.pk).agent_capacity == 1


def test_the_dashboards_restore_reads_the_video_conversation_first(agent_client, agent, owner, business):
    """GET /api/sessions/current shows one session: the one the customer is on camera in."""
    _capacity(owner, 3)
    paying, chat, video = _waiting(business), _waiting(business, medium="chat"), _waiting(business)
    assert agent_client.post(f"/api/sessions/{paying.public_id}/accept").status_code == 200
    _to_payment(paying)
    assert agent_client.post(f"/api/sessions/{chat.public_id}/accept").status_code == 200
    assert agent_client.post(f"/api/sessions/{video.public_id}/accept").status_code == 200
    assert agent_client.get("/api/sessions/current").json()["session"]["id"] == video.public_id
