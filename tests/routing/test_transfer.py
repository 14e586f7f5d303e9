"""Transfer (apps/routing/transfer.py): the serving agent hands the active session to a named
colleague or a language's wave; the receiver accepts through the accept endpoint; the session keeps
its cart, video channel and history; the sender returns to the queue or, unanswered, keeps the
session and is told."""

from datetime import timedelta

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import AgentStatus, User
from apps.core.models import DomainEvent
from apps.routing import offers
from apps.routing.models import Offer, OfferStatus
from apps.sessions import services as session_services
from apps.sessions.models import Assignment, Session
from tests import factories
from tests.conftest import kiosk_client_for
from tests.support.transfers import on, serving, signed_in_client


def test_a_named_colleague_accepts_and_the_kiosk_names_them(
    kiosk, agent, agent_client, colleague, colleague_client, broadcasts, django_capture_on_commit_callbacks
):
    session = serving(kiosk, agent_client)
    cart = factories.OrderFactory(session=session, status="draft")
    response = agent_client.post(f"/api/sessions/{session.public_id}/transfer", {"to_agent_id": colleague.pk})
    assert response.status_code == 202, response.content
    body = response.json()
    assert body["session_id"] == session.public_id
    assert [offer["agent"] for offer in body["offers"]] == [{"id": str(colleague.pk), "name": "Bea"}]
    offer = Offer.objects.get(agent=colleague, status=OfferStatus.LIVE)
    assert offer.transfer_from_id == agent.pk
    assert body["expires_at"] == offer.expires_at.isoformat().replace("+00:00", "Z")
    assert body["offer_seconds"] == 15

    incoming = colleague_client.get("/api/sessions/incoming").json()["sessions"]
    assert [item["id"] for item in incoming] == [session.public_id]
    assert incoming[0]["transfer_from"] == {"id": str(agent.pk), "name": agent.name}
    heard = on(broadcasts, "SessionIncoming", f"private-agent.{colleague.pk}")
    assert heard[-1]["session"]["transfer_from"] == {"id": str(agent.pk), "name": agent.name}

    accepted_before = session.accepted_at
    with django_capture_on_commit_callbacks(execute=True):
        taken = colleague_client.post(f"/api/sessions/{session.public_id}/accept")
    assert taken.status_code == 200, taken.content
    assert taken.json()["session"]["id"] == session.public_id
    assert taken.json()["session"]["status"] == "active"

    session.refresh_from_db()
    assert (session.status, session.agent_id, session.accepted_at) == ("active", colleague.pk, accepted_before)
    rows = list(Assignment.objects.filter(session=session).order_by("started_at", "pk"))
    assert [(row.agent_id, row.via, row.ended_at is None) for row in rows] == [
        (agent.pk, "accept", False),
        (colleague.pk, "transfer", True),
    ]
    assert rows[0].ended_at == rows[1].started_at
    assert User.objects.get(pk=agent.pk).agent_status == AgentStatus.AVAILABLE
    assert User.objects.get(pk=colleague.pk).agent_status == AgentStatus.BUSY
    assert Offer.objects.get(pk=offer.pk).status == OfferStatus.ACCEPTED
    assert DomainEvent.objects.filter(name="session.accepted").count() == 1  # never sent twice

    status = kiosk_client_for(kiosk).get(f"/api/public/sessions/{session.public_id}/status").json()
    assert status["agent"]["name"] == "Bea"
    assert status["video_channel"] == session.public_id
    transferred = {"session_id": session.public_id, "status": "active", "from_agent_id": str(agent.pk)}
    for channel in (f"private-agent.{agent.pk}", f"private-agent.{colleague.pk}", f"private-kiosk.{kiosk.pk}"):
        [message] = on(broadcasts, "SessionTransferred", channel)
        assert message == {**transferred, "agent": {"id": str(colleague.pk), "name": "Bea"}}
    assert on(broadcasts, "SessionStatusChanged", f"private-kiosk.{kiosk.pk}")[-1]["agent"]["name"] == "Bea"
    # the receiver now drives the session; the sender no longer can
    assert agent_client.post(f"/api/sessions/{session.public_id}/end", {"reason": "completed"}).status_code == 403
    current = colleague_client.get("/api/sessions/current").json()
    assert current["session"]["id"] == session.public_id
    assert current["order"]["order_number"] == cart.number  # the cart goes with the session
    assert agent_client.get("/api/sessions/current").json()["session"] is None


def test_a_language_wave_offers_that_languages_free_agents_and_the_first_accept_wins(
    owner, kiosk, agent, agent_client, broadcasts
):
    spanish = [
        factories.AgentFactory(owner=owner, languages=["es"], idle_since=timezone.now() - timedelta(seconds=s))
        for s in (10, 300, 200, 100)
    ]
    factories.AgentFactory(owner=owner, languages=["en"])  # not a Spanish speaker
    factories.AgentFactory(owner=owner, languages=["es"], agent_status=AgentStatus.BREAK)
    session = serving(kiosk, agent_client)
    response = agent_client.post(f"/api/sessions/{session.public_id}/transfer", {"language": "es"})
    assert response.status_code == 202, response.content
    offered = {int(offer["agent"]["id"]) for offer in response.json()["offers"]}
    assert offered == {spanish[1].pk, spanish[2].pk, spanish[3].pk}  # K=3, the longest idle
    first, second = (signed_in_client(User.objects.get(pk=pk)) for pk in sorted(offered)[:2])
    assert first.post(f"/api/sessions/{session.public_id}/accept").status_code == 200
    lost = second.post(f"/api/sessions/{session.public_id}/accept")
    assert lost.status_code == 409
    assert lost.json()["error"]["code"] == "SESSION_ALREADY_ACCEPTED"
    others = offered - {sorted(offered)[0]}
    claimed = [data for channels, name, data in broadcasts if name == "SessionClaimed"]
    assert {channel for channels, name, _ in broadcasts if name == "SessionClaimed" for channel in channels} == {
        f"private-agent.{pk}" for pk in others
    }
    assert claimed[-1]["agent_id"] == str(sorted(offered)[0])
    assert not Offer.objects.filter(session=session, status=OfferStatus.LIVE).exists()


def test_unanswered_the_sender_keeps_the_session_and_is_told(
    kiosk, agent, agent_client, colleague, colleague_client, broadcasts
):
    session = serving(kiosk, agent_client)
    assert agent_client.post(f"/api/sessions/{session.public_id}/transfer", {"to_agent_id": colleague.pk}).status_code
    with time_machine.travel(timezone.now() + timedelta(seconds=16)):
        User.objects.filter(pk__in=[agent.pk, colleague.pk]).update(last_seen_at=timezone.now())
        offers.offers_dispatch()
        late = colleague_client.post(f"/api/sessions/{session.public_id}/accept")
    assert late.status_code == 409
    assert late.json()["error"]["code"] == "SESSION_ALREADY_ACCEPTED"
    session.refresh_from_db()
    assert session.agent_id == agent.pk
    assert on(broadcasts, "TransferLapsed", f"private-agent.{agent.pk}") == [
        {"session_id": session.public_id, "status": "active", "reason": "no_answer"}
    ]
    assert on(broadcasts, "SessionWithdrawn", f"private-agent.{colleague.pk}")[-1]["reason"] == "offer_expired"
    assert User.objects.get(pk=colleague.pk).missed_offers == 0  # a transfer lapsing is no miss
    assert User.objects.get(pk=agent.pk).agent_status == AgentStatus.BUSY
    # the transfer is over: the sender may try again
    again = agent_client.post(f"/api/sessions/{session.public_id}/transfer", {"to_agent_id": colleague.pk})
    assert again.status_code == 202


def test_a_named_colleagues_queue_offer_gives_way_to_the_transfer(kiosk, agent, agent_client, colleague, broadcasts):
    session = serving(kiosk, agent_client)
    waiting = factories.SessionFactory(kiosk=factories.KioskFactory(business=kiosk.business), customer_locale="es")
    offers.offers_dispatch()
    assert Offer.objects.get(agent=colleague, status=OfferStatus.LIVE).session_id == waiting.pk
    assert agent_client.post(f"/api/sessions/{session.public_id}/transfer", {"to_agent_id": colleague.pk}).status_code
    assert Offer.objects.get(agent=colleague, status=OfferStatus.LIVE).session_id == session.pk
    assert on(broadcasts, "SessionWithdrawn", f"private-agent.{colleague.pk}")[-1] == {
        "session_id": waiting.public_id,
        "status": "pending",
        "reason": "transfer_offered",
    }


def test_ending_or_paying_withdraws_the_transfer(kiosk, agent, agent_client, colleague, colleague_client, broadcasts):
    session = serving(kiosk, agent_client)
    agent_client.post(f"/api/sessions/{session.public_id}/transfer", {"to_agent_id": colleague.pk})
    assert agent_client.post(f"/api/sessions/{session.public_id}/end", {"reason": "completed"}).status_code == 200
    assert not Offer.objects.filter(session=session, status=OfferStatus.LIVE).exists()
    assert on(broadcasts, "SessionWithdrawn", f"private-agent.{colleague.pk}")[-1] == {
        "session_id": session.public_id,
        "status": "completed",
        "reason": "session_ended",
    }
    assert on(broadcasts, "TransferLapsed", f"private-agent.{agent.pk}") == []  # it ended: nothing to keep
    ended = colleague_client.post(f"/api/sessions/{session.public_id}/accept")
    assert ended.status_code == 409
    assert ended.json()["error"]["code"] == "SESSION_ALREADY_ENDED"
    assert Assignment.objects.get(session=session).ended_at is not None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "non_field_errors"),
        ({"to_agent_id": 1, "language": "es"}, "non_field_errors"),
        ({"language": "Spanish"}, "language"),
        ({"to_agent_id": "x"}, "to_agent_id"),
    ],
)
def test_a_transfer_names_exactly_one_target(kiosk, agent, agent_client, body, field):
    session = serving(kiosk, agent_client)
    response = agent_client.post(f"/api/sessions/{session.public_id}/transfer", body)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert field in error["details"]
    assert not Offer.objects.filter(session=session).exists()


def test_unhappy_transfers_are_refused_with_clear_codes(owner, kiosk, agent, agent_client, colleague, other_business):
    session = serving(kiosk, agent_client)
    url = f"/api/sessions/{session.public_id}/transfer"
    stranger = factories.AgentFactory(owner=other_business.owner)

    def refused(client, body, status, code):
        response = client.post(url, body)
        assert response.status_code == status, response.content
        assert response.json()["error"]["code"] == code
        return response.json()["error"]

    assert refused(agent_client, {"to_agent_id": stranger.pk}, 422, "VALIDATION_ERROR")["details"] == {
        "to_agent_id": ["No such agent in this session's pool."]
    }
    refused(agent_client, {"to_agent_id": agent.pk}, 422, "VALIDATION_ERROR")
    away = factories.AgentFactory(owner=owner, agent_status=AgentStatus.BREAK)
    refused(agent_client, {"to_agent_id": away.pk}, 409, "TRANSFER_TARGET_UNAVAILABLE")
    gone = factories.AgentFactory(owner=owner, last_seen_at=timezone.now() - timedelta(minutes=5))
    refused(agent_client, {"to_agent_id": gone.pk}, 409, "TRANSFER_TARGET_UNAVAILABLE")
    assert refused(agent_client, {"language": "fr"}, 409, "TRANSFER_TARGET_UNAVAILABLE")["details"] == {
        "language": "fr"
    }
    # another agent of the owner is not the serving one: 403; another owner's agent sees no session: 404
    refused(signed_in_client(colleague), {"to_agent_id": agent.pk}, 403, "SESSION_NOT_OWNED")
    refused(signed_in_client(stranger), {"language": "es"}, 404, "SESSION_NOT_FOUND")
    assert agent_client.post(url, {"to_agent_id": colleague.pk}).status_code == 202
    refused(agent_client, {"language": "es"}, 409, "TRANSFER_IN_PROGRESS")
    assert Offer.objects.filter(session=session).count() == 1


def test_only_an_active_session_is_transferred(kiosk, agent, agent_client, colleague):
    pending = factories.SessionFactory(kiosk=kiosk)
    response = agent_client.post(f"/api/sessions/{pending.public_id}/transfer", {"to_agent_id": colleague.pk})
    assert (response.status_code, response.json()["error"]["code"]) == (403, "SESSION_NOT_OWNED")
    in_payment = factories.SessionFactory(
        kiosk=factories.KioskFactory(business=kiosk.business), status="payment", agent=agent, accepted_at=timezone.now()
    )
    response = agent_client.post(f"/api/sessions/{in_payment.public_id}/transfer", {"to_agent_id": colleague.pk})
    assert (response.status_code, response.json()["error"]["code"]) == (409, "INVALID_STATE")
    Session.objects.filter(pk=in_payment.pk).update(status="completed", ended_at=timezone.now())
    response = agent_client.post(f"/api/sessions/{in_payment.public_id}/transfer", {"to_agent_id": colleague.pk})
    assert (response.status_code, response.json()["error"]["code"]) == (409, "SESSION_ALREADY_ENDED")


def test_a_receiver_serving_someone_else_cannot_take_a_transfer(
    kiosk, agent, agent_client, colleague, colleague_client
):
    session = serving(kiosk, agent_client)
    agent_client.post(f"/api/sessions/{session.public_id}/transfer", {"to_agent_id": colleague.pk})
    serving(factories.KioskFactory(business=kiosk.business), colleague_client)
    response = colleague_client.post(f"/api/sessions/{session.public_id}/accept")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "AGENT_HAS_ACTIVE_SESSION")
    assert Session.objects.get(pk=session.pk).agent_id == agent.pk


def test_the_transfer_list_names_the_free_colleagues_and_their_languages(
    owner, kiosk, agent, agent_client, colleague, other_business
):
    session = serving(kiosk, agent_client)
    factories.AgentFactory(owner=owner, name="Cy", languages=["fr", "en"])
    factories.AgentFactory(owner=owner, name="Away", agent_status=AgentStatus.BREAK)
    factories.AgentFactory(owner=other_business.owner, name="Stranger")
    platform = factories.AgentFactory(owner=None, name="Al", languages=["de"])
    body = agent_client.get(f"/api/sessions/{session.public_id}/transfer").json()
    assert body == {
        "agents": [
            {"id": str(colleague.pk), "name": "Bea", "languages": ["es"]},
            {"id": str(User.objects.get(name="Cy").pk), "name": "Cy", "languages": ["fr", "en"]},
            {"id": str(platform.pk), "name": "Al", "languages": ["de"]},
        ],
        "languages": ["de", "en", "es", "fr"],
        "pending": None,  # no transfer of it waiting for an answer
    }
    response = signed_in_client(colleague).get(f"/api/sessions/{session.public_id}/transfer")
    assert (response.status_code, response.json()["error"]["code"]) == (403, "SESSION_NOT_OWNED")


def test_sending_to_payment_withdraws_the_transfer_and_tells_the_sender(
    kiosk, agent, agent_client, colleague, colleague_client, broadcasts
):
    session = serving(kiosk, agent_client)
    agent_client.post(f"/api/sessions/{session.public_id}/transfer", {"to_agent_id": colleague.pk})
    with transaction.atomic():  # as billing's send to payment does, under the session's row lock
        locked = Session.objects.select_for_update().get(pk=session.pk)
        session_services.session_move(session=locked, action="send_to_payment")
    assert not Offer.objects.filter(session=session, status=OfferStatus.LIVE).exists()
    assert on(broadcasts, "TransferLapsed", f"private-agent.{agent.pk}") == [
        {"session_id": session.public_id, "status": "payment", "reason": "session_in_payment"}
    ]
    assert on(broadcasts, "SessionWithdrawn", f"private-agent.{colleague.pk}")[-1] == {
        "session_id": session.public_id,
        "status": "payment",
        "reason": "session_in_payment",
    }
    response = colleague_client.post(f"/api/sessions/{session.public_id}/accept")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "SESSION_ALREADY_ACCEPTED")
