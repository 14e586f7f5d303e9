"""Transfer under real races (PostgreSQL): two receivers of one wave accept at the same instant,
and a receiver's accept meets the sender's end. The session's row lock orders each pair: one
receiver wins; the end and the accept never both take effect."""

import pytest
from django.utils import timezone

from apps.accounts.models import User
from apps.routing.models import Offer, OfferStatus
from apps.sessions.models import Assignment, Session
from tests import factories
from tests.support.races import at_once
from tests.support.transfers import signed_in_client

pytestmark = [pytest.mark.postgres]
ROUNDS = 4


def _serving(kiosk, sender_client) -> Session:
    session = factories.SessionFactory(kiosk=kiosk, customer_locale="es")
    assert sender_client.post(f"/api/sessions/{session.public_id}/accept").status_code == 200
    return session


@pytest.mark.django_db(transaction=True)
def test_of_two_receivers_accepting_at_once_exactly_one_takes_the_session():
    business = factories.BusinessFactory()
    receivers = factories.AgentFactory.create_batch(2, owner=business.owner, languages=["es"])
    clients = [signed_in_client(agent) for agent in receivers]
    for _ in range(ROUNDS):
        sender = factories.AgentFactory(owner=business.owner, languages=["en"])
        sender_client = signed_in_client(sender)
        seen = {"agent_status": "available", "last_seen_at": timezone.now()}  # signed in (a slow sign-in ages it)
        User.objects.filter(pk__in=[a.pk for a in receivers]).update(**seen)
        session = _serving(factories.KioskFactory(business=business), sender_client)
        response = sender_client.post(f"/api/sessions/{session.public_id}/transfer", {"language": "es"})
        assert response.status_code == 202, response.content
        assert len(response.json()["offers"]) == 2
        url = f"/api/sessions/{session.public_id}/accept"
        results = at_once([lambda c=client: c.post(url) for client in clients])

        assert not [r for r in results if isinstance(r, Exception)], results
        assert sorted(r.status_code for r in results) == [200, 409]
        [lost] = [r for r in results if r.status_code == 409]
        assert lost.json()["error"]["code"] == "SESSION_ALREADY_ACCEPTED"
        session.refresh_from_db()
        winner = receivers[[r.status_code for r in results].index(200)]
        assert session.agent_id == winner.pk
        assert list(Assignment.objects.filter(session=session, ended_at__isnull=True).values_list("agent_id")) == [
            (winner.pk,)
        ]
        assert Assignment.objects.filter(session=session).count() == 2
        assert not Offer.objects.filter(session=session, status=OfferStatus.LIVE).exists()
        assert User.objects.get(pk=sender.pk).agent_status == "available"
        Session.objects.filter(pk=session.pk).update(status="completed")  # free the winner for the next round


@pytest.mark.django_db(transaction=True)
def test_an_accept_racing_the_senders_end_never_takes_an_ended_session():
    business = factories.BusinessFactory()
    receiver = factories.AgentFactory(owner=business.owner, languages=["es"])
    receiver_client = signed_in_client(receiver)
    outcomes = set()
    for _ in range(ROUNDS):
        sender = factories.AgentFactory(owner=business.owner, languages=["en"])
        sender_client = signed_in_client(sender)
        User.objects.filter(pk=receiver.pk).update(agent_status="available", last_seen_at=timezone.now())
        session = _serving(factories.KioskFactory(business=business), sender_client)
        response = sender_client.post(f"/api/sessions/{session.public_id}/transfer", {"to_agent_id": receiver.pk})
        assert response.status_code == 202, response.content
        end, accept = at_once(
            [
                lambda s=session, c=sender_client: c.post(f"/api/sessions/{s.public_id}/end", {"reason": "completed"}),
                lambda s=session: receiver_client.post(f"/api/sessions/{s.public_id}/accept"),
            ]
        )
        assert not isinstance(end, Exception) and not isinstance(accept, Exception), (end, accept)
        session.refresh_from_db()
        rows = list(Assignment.objects.filter(session=session).order_by("pk").values_list("agent_id", "ended_at"))
        if accept.status_code == 200:  # the accept came first: the sender's end is no longer its own
            assert (end.status_code, end.json()["error"]["code"]) == (403, "SESSION_NOT_OWNED")
            assert (session.status, session.agent_id) == ("active", receiver.pk)
            assert [agent for agent, _ in rows] == [sender.pk, receiver.pk] and rows[1][1] is None
            Session.objects.filter(pk=session.pk).update(status="completed")
        else:  # the end came first: the transfer was withdrawn with it
            assert end.status_code == 200
            assert (accept.status_code, accept.json()["error"]["code"]) == (409, "SESSION_ALREADY_ENDED")
            assert (session.status, session.agent_id) == ("completed", sender.pk)
            assert [agent for agent, _ in rows] == [sender.pk] and rows[0][1] is not None
        outcomes.add(accept.status_code)
        assert not Offer.objects.filter(session=session, status=OfferStatus.LIVE).exists()
    assert outcomes <= {200, 409}
