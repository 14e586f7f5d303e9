"""The sender's side of a transfer: taking it back before anyone accepts (DELETE
/api/sessions/{id}/transfer), finding it again after a reload (GET .../transfer's `pending`), and
reading the session after handing it over (GET /api/sessions/{id}: read-only, `handed_over_to`)."""

from datetime import timedelta

from django.utils import timezone

from apps.routing.models import Offer, OfferStatus
from apps.sessions.models import Assignment, Session
from tests import factories
from tests.support.transfers import on, serving, signed_in_client


def offer_to(client, session, colleague) -> dict:
    response = client.post(f"/api/sessions/{session.public_id}/transfer", {"to_agent_id": colleague.pk})
    assert response.status_code == 202, response.content
    return response.json()


def test_the_sender_takes_a_pending_transfer_back_and_keeps_the_session(
    kiosk, agent, agent_client, colleague, colleague_client, broadcasts, django_capture_on_commit_callbacks
):
    session = serving(kiosk, agent_client)
    offer_to(agent_client, session, colleague)
    with django_capture_on_commit_callbacks(execute=True):
        response = agent_client.delete(f"/api/sessions/{session.public_id}/transfer")
    assert response.status_code == 204, response.content
    assert response.content == b""

    offer = Offer.objects.get(session=session, agent=colleague)
    assert (offer.status, offer.transfer_from_id) == (OfferStatus.WITHDRAWN, agent.pk)
    assert offer.closed_at is not None
    session.refresh_from_db()
    assert (session.status, session.agent_id) == ("active", agent.pk)
    assert list(Assignment.objects.filter(session=session).values_list("agent_id", "ended_at")) == [(agent.pk, None)]
    withdrawn = on(broadcasts, "SessionWithdrawn", f"private-agent.{colleague.pk}")
    assert withdrawn[-1] == {"session_id": session.public_id, "status": "active", "reason": "transfer_cancelled"}
    lapsed = on(broadcasts, "TransferLapsed", f"private-agent.{agent.pk}")
    assert lapsed == [{"session_id": session.public_id, "status": "active", "reason": "cancelled"}]

    assert colleague_client.get("/api/sessions/incoming").json() == {"sessions": []}
    late = colleague_client.post(f"/api/sessions/{session.public_id}/accept")
    assert (late.status_code, late.json()["error"]["code"]) == (409, "SESSION_ALREADY_ACCEPTED")
    again = agent_client.delete(f"/api/sessions/{session.public_id}/transfer")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "TRANSFER_NOT_PENDING")
    # The session can be offered again at once.
    assert (
        agent_client.post(f"/api/sessions/{session.public_id}/transfer", {"to_agent_id": colleague.pk}).status_code
        == 202
    )


def test_cancel_refusals_none_pending_accepted_not_serving_and_another_owner(
    kiosk, agent, agent_client, colleague, colleague_client, other_business
):
    session = serving(kiosk, agent_client)
    path = f"/api/sessions/{session.public_id}/transfer"
    none = agent_client.delete(path)
    assert (none.status_code, none.json()["error"]["code"]) == (409, "TRANSFER_NOT_PENDING")

    offer_to(agent_client, session, colleague)
    stranger = signed_in_client(factories.AgentFactory(owner=other_business.owner))
    foreign = stranger.delete(path)
    assert (foreign.status_code, foreign.json()["error"]["code"]) == (404, "SESSION_NOT_FOUND")
    not_mine = colleague_client.delete(path)  # the receiver cannot take the sender's transfer back
    assert (not_mine.status_code, not_mine.json()["error"]["code"]) == (403, "SESSION_NOT_OWNED")
    assert Offer.objects.filter(session=session, status=OfferStatus.LIVE).count() == 1

    assert colleague_client.post(f"/api/sessions/{session.public_id}/accept").status_code == 200
    late = agent_client.delete(path)
    assert (late.status_code, late.json()["error"]["code"]) == (409, "TRANSFER_ALREADY_ACCEPTED")
    session.refresh_from_db()
    assert session.agent_id == colleague.pk  # the accept stands


def test_a_lapsed_transfer_is_not_pending(kiosk, agent, agent_client, colleague, colleague_client):
    session = serving(kiosk, agent_client)
    offer_to(agent_client, session, colleague)
    Offer.objects.filter(session=session, status=OfferStatus.LIVE).update(expires_at=timezone.now())
    response = agent_client.delete(f"/api/sessions/{session.public_id}/transfer")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "TRANSFER_NOT_PENDING")
    assert agent_client.get(f"/api/sessions/{session.public_id}/transfer").json()["pending"] is None


def test_the_transfer_read_names_the_pending_offers_for_a_reload(
    kiosk, agent, agent_client, colleague, colleague_client
):
    session = serving(kiosk, agent_client)
    path = f"/api/sessions/{session.public_id}/transfer"
    assert agent_client.get(path).json()["pending"] is None
    made = offer_to(agent_client, session, colleague)
    body = agent_client.get(path).json()
    assert (
        body["pending"]["offers"]
        == made["offers"]
        == [{"agent": {"id": str(colleague.pk), "name": "Bea"}, "expires_at": made["expires_at"]}]
    )
    assert body["pending"]["expires_at"] == made["expires_at"]
    assert 13 <= body["pending"]["seconds_left"] <= 15
    assert body["agents"] == []  # Bea holds the offer: not offered twice
    refused = colleague_client.get(path)  # only the serving agent reads it
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "SESSION_NOT_OWNED")


def test_after_the_hand_over_the_sender_reads_the_session_and_who_serves_it(
    kiosk, agent, agent_client, colleague, colleague_client, other_business
):
    session = serving(kiosk, agent_client)
    factories.OrderFactory(session=session, status="draft")
    offer_to(agent_client, session, colleague)
    assert colleague_client.post(f"/api/sessions/{session.public_id}/accept").status_code == 200

    mine = agent_client.get(f"/api/sessions/{session.public_id}")
    assert mine.status_code == 200, mine.content
    body = mine.json()
    assert body["session"]["id"] == session.public_id
    assert body["session"]["status"] == "active"
    assert body["session"]["handed_over_to"] == {"id": str(colleague.pk), "name": "Bea"}
    assert body["order"] is not None
    theirs = colleague_client.get(f"/api/sessions/{session.public_id}").json()
    assert theirs["session"]["handed_over_to"] is None
    assert agent_client.get("/api/sessions/current").json()["session"] is None  # the sender serves nobody
    end = agent_client.post(f"/api/sessions/{session.public_id}/end", {"reason": "completed"})
    assert (end.status_code, end.json()["error"]["code"]) == (403, "SESSION_NOT_OWNED")  # read-only
    # The chat too: the sender reads what was said, the colleague writes from now on.
    chat = f"/api/sessions/{session.public_id}/chat"
    assert colleague_client.post(chat, {"text": "Hola, soy Bea."}).status_code == 201
    assert [m["text"] for m in agent_client.get(chat).json()["messages"]] == ["Hola, soy Bea."]
    written = agent_client.post(chat, {"text": "Still here?"})
    assert (written.status_code, written.json()["error"]["code"]) == (403, "SESSION_NOT_OWNED")

    # An agent who never served it, and another owner's agent, still get 404.
    bystander = signed_in_client(factories.AgentFactory(owner=kiosk.business.owner))
    stranger = signed_in_client(factories.AgentFactory(owner=other_business.owner))
    for client in (bystander, stranger):
        for path in (f"/api/sessions/{session.public_id}", chat):
            response = client.get(path)
            assert (response.status_code, response.json()["error"]["code"]) == (404, "SESSION_NOT_FOUND")


def test_my_sessions_today_lists_handed_over_and_taken_over_sessions(kiosk, agent, agent_client, colleague):
    """GET /api/sessions/mine: the sender keeps the session it handed over (with `handed_over_to`),
    and the receiver lists it although another agent accepted it first, even yesterday."""
    colleague_client = signed_in_client(colleague)
    session = serving(kiosk, agent_client)
    Session.objects.filter(pk=session.pk).update(accepted_at=timezone.now() - timedelta(days=1))
    offer_to(agent_client, session, colleague)
    assert colleague_client.post(f"/api/sessions/{session.public_id}/accept").status_code == 200
    bystander = signed_in_client(factories.AgentFactory(owner=kiosk.business.owner))

    sent = agent_client.get("/api/sessions/mine", {"since": _hours_ago(30)}).json()
    assert [(s["id"], s["handed_over_to"]) for s in sent["data"]] == [
        (session.public_id, {"id": str(colleague.pk), "name": "Bea"})
    ]
    received = colleague_client.get("/api/sessions/mine").json()  # since today: taken over today
    assert [(s["id"], s["handed_over_to"]) for s in received["data"]] == [(session.public_id, None)]
    assert received["total"] == 1
    assert bystander.get("/api/sessions/mine").json() == {"data": [], "total": 0, "next_offset": None}


def _hours_ago(hours: int) -> str:
    return (timezone.now() - timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")
