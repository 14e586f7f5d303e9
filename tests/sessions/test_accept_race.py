"""Atomic accept under a real race (PostgreSQL): of many agents accepting one session at the same
instant through the whole HTTP stack, exactly one wins and every other gets 409
SESSION_ALREADY_ACCEPTED. The small version of bench/accept_race.py."""

import threading

import pytest
from django.db import connection

from apps.accounts.models import AgentStatus, User
from apps.core.models import DomainEvent
from apps.sessions.models import Session
from tests import factories
from tests.conftest import AgentClient

pytestmark = [
    pytest.mark.postgres,  # a real race needs PostgreSQL
]

AGENTS = 12
ROUNDS = 3


def _race(clients: list[AgentClient], public_id: str) -> list:
    barrier = threading.Barrier(len(clients))
    responses: list = [None] * len(clients)

    def accept(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            responses[index] = clients[index].post(f"/api/sessions/{public_id}/accept")
        except Exception as exc:  # asserted below: a crash must not look like a lost race
            responses[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(n,)) for n in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return responses


@pytest.mark.django_db(transaction=True)
def test_exactly_one_of_many_concurrent_accepts_wins_every_round():
    business = factories.BusinessFactory()
    kiosk = factories.KioskFactory(business=business)
    agents = factories.AgentFactory.create_batch(AGENTS, owner=business.owner)
    clients = []
    for agent in agents:
        client = AgentClient()
        assert client.sign_in(agent.email).status_code == 200
        clients.append(client)

    for _ in range(ROUNDS):
        session = factories.SessionFactory(kiosk=kiosk)
        responses = _race(clients, session.public_id)

        assert not [r for r in responses if isinstance(r, Exception)], responses
        winners = [n for n, r in enumerate(responses) if r.status_code == 200]
        assert len(winners) == 1, [r.status_code for r in responses]
        losers = [r for r in responses if r.status_code != 200]
        assert all(r.status_code == 409 for r in losers)
        assert {r.json()["error"]["code"] for r in losers} == {"SESSION_ALREADY_ACCEPTED"}

        winner = agents[winners[0]]
        session.refresh_from_db()
        assert session.status == "active" and session.agent_id == winner.pk
        assert User.objects.get(pk=winner.pk).agent_status == AgentStatus.BUSY
        assert DomainEvent.objects.filter(name="session.accepted", payload__session_id=session.pk).count() == 1

        ended = clients[winners[0]].post(f"/api/sessions/{session.public_id}/end", {"reason": "completed"})
        assert ended.status_code == 200, ended.content

    assert Session.objects.filter(status="completed").count() == ROUNDS
