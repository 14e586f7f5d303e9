"""The queue a waiting customer sees (apps/routing/queue.py): `queue` in the kiosk's status body
while pending, QueueUpdated on the kiosk's channel when it moves, and the poll's cached copy
never serving an old place."""

import asyncio
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from apps.accounts.models import AgentStatus
from apps.routing import offers
from apps.routing import queue as queue_module
from apps.routing.models import Offer
from apps.routing.queue import estimate_wait, queue_of
from apps.sessions.models import Session
from tests import factories
from tests.conftest import kiosk_client_for
from tests.support.realtime import http, run, subscribe_via


def start(kiosk) -> str:
    response = kiosk_client_for(kiosk).post(
        "/api/public/sessions/start",
        {"device_id": str(kiosk.device_id), "customer_locale": "en-US"},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    return response.json()["session_id"]


def status(kiosk, session_id) -> dict:
    response = kiosk_client_for(kiosk).get(f"/api/public/sessions/{session_id}/status")
    assert response.status_code == 200
    return response.json()


def answered(business, *, waited: int, handled: int | None, ago: int = 60):
    """A recent session answered after `waited` s and (if `handled`) ended after `handled` s."""
    accepted = timezone.now() - timedelta(seconds=ago)
    fields = {"status": "completed", "ended_at": accepted + timedelta(seconds=handled)} if handled else {}
    fields = fields or {"status": "active"}
    factories.SessionFactory(
        kiosk=factories.KioskFactory(business=business),
        created_at=accepted - timedelta(seconds=waited),
        accepted_at=accepted,
        agent=factories.AgentFactory(owner=business.owner, agent_status=AgentStatus.OFFLINE, last_seen_at=None),
        **fields,
    )


def test_a_waiting_customer_sees_its_place_and_no_estimate_without_a_basis(business, owner):
    factories.AgentFactory(owner=owner)
    kiosks = [factories.KioskFactory(business=business) for _ in range(3)]
    ids = [start(kiosk) for kiosk in kiosks]
    bodies = [status(kiosk, session_id) for kiosk, session_id in zip(kiosks, ids, strict=True)]
    assert [body["queue"]["position"] for body in bodies] == [1, 2, 3]
    assert {body["queue"]["agents_available"] for body in bodies} == {1}
    assert {body["queue"]["estimated_wait_seconds"] for body in bodies} == {None}  # nothing answered lately


def test_the_estimate_comes_from_recent_answer_and_handle_times_and_the_agents_signed_in(business, owner):
    answered(business, waited=20, handled=200)
    answered(business, waited=40, handled=400)
    factories.AgentFactory(owner=owner, languages=["en"])  # one available
    factories.AgentFactory(owner=owner, agent_status=AgentStatus.BUSY)  # one serving
    kiosks = [factories.KioskFactory(business=business) for _ in range(3)]
    ids = [start(kiosk) for kiosk in kiosks]
    estimates = [status(k, i)["queue"]["estimated_wait_seconds"] for k, i in zip(kiosks, ids, strict=True)]
    # The first is within the one available agent: 30 s, the answer time nearest the mean of
    # the two (20 and 40 cannot both be within 25 % of one value). The others wait for agents to
    # free up (tests/routing/test_wait_estimate.py): later in the line, longer.
    session = Session.objects.get(public_id=ids[0])
    pool = queue_module._pool(owner.pk, timezone.now())
    assert (pool.available, pool.signed_in, sorted(pool.handles)) == (1, 2, [200.0, 400.0])
    assert sorted(seconds for seconds, _ in pool.answers) == [20.0, 40.0]
    assert pool.available_languages == (frozenset({"en"}),)
    assert estimates[0] == 30
    assert estimates[0] < estimates[1] < estimates[2]
    assert estimates[1:] == [estimate_wait(position, pool, language="en") for position in (2, 3)]
    assert queue_of(session)["estimated_wait_seconds"] == 30  # type: ignore[index]


def test_the_estimate_counts_each_busy_agents_time_in_session_and_the_offers_answer_time(business, owner):
    """With offers answered lately, the answer time is offer to accept (not the queue's wait),
    with the size of the wave each answered."""
    with time_machine.travel(timezone.now(), tick=False):  # times in session do not move while it runs
        now = timezone.now()
        for waited, handled in ((300, 100), (500, 100)):  # long waits in a queue, answered 4 and 6 s after their offer
            answered(business, waited=waited, handled=handled, ago=200)
        for session, seconds in zip(Session.objects.filter(owner=owner), (4, 6), strict=True):
            made = session.accepted_at - timedelta(seconds=seconds)
            Offer.objects.create(
                session=session,
                agent=session.agent,
                status="accepted",
                created_at=made,
                expires_at=session.accepted_at + timedelta(seconds=15),
                closed_at=session.accepted_at,
            )
            if seconds == 6:  # this one went to a wave of two
                other = factories.AgentFactory(owner=owner, agent_status=AgentStatus.OFFLINE, last_seen_at=None)
                Offer.objects.create(
                    session=session, agent=other, status="withdrawn", created_at=made, expires_at=made, closed_at=made
                )
        for served in (90, 30):
            agent = factories.AgentFactory(owner=owner, agent_status=AgentStatus.BUSY)
            factories.SessionFactory(
                kiosk=factories.KioskFactory(business=business),
                status="active",
                agent=agent,
                accepted_at=now - timedelta(seconds=served),
            )
        kiosks = [factories.KioskFactory(business=business) for _ in range(3)]
        ids = [start(kiosk) for kiosk in kiosks]
        estimates = [status(k, i)["queue"]["estimated_wait_seconds"] for k, i in zip(kiosks, ids, strict=True)]
        pool = queue_module._pool(owner.pk, now)
        assert sorted(pool.answers) == [(4.0, 1), (6.0, 2)]
        assert sorted(pool.serving_for) == [30.0, 90.0]
        assert (pool.available, pool.signed_in, pool.answer_seconds, pool.handle_seconds) == (0, 2, 5.0, 100.0)
        assert estimates == [estimate_wait(position, pool, language="en") for position in (1, 2, 3)]
        # The agent 90 s into a 100 s mean frees first: the first customer's wait is well under
        # a full handle time; the third waits for a second round.
        assert estimates[0] < 50 and estimates[2] > 100, estimates


def test_queue_is_null_once_the_session_is_no_longer_waiting(business, owner, agent):
    kiosk = factories.KioskFactory(business=business)
    session_id = start(kiosk)
    session = Session.objects.get(public_id=session_id)
    from apps.sessions import services

    services.session_accept(public_id=session_id, agent=agent)
    assert status(kiosk, session_id)["queue"] is None
    session.refresh_from_db()
    assert queue_of(session) is None


def test_others_leaving_the_line_move_a_customer_up_and_the_cached_copy_is_never_stale(business, owner, broadcasts):
    first_kiosk, second_kiosk = factories.KioskFactory(business=business), factories.KioskFactory(business=business)
    first, second = start(first_kiosk), start(second_kiosk)
    assert status(second_kiosk, second)["queue"]["position"] == 2  # now cached
    assert status(second_kiosk, second)["queue"]["position"] == 2  # served from the copy
    broadcasts.clear()
    assert kiosk_client_for(first_kiosk).post(f"/api/public/sessions/{first}/cancel").status_code == 200
    assert status(second_kiosk, second)["queue"]["position"] == 1
    updates = [(channels, data) for channels, event, data in broadcasts if event == "QueueUpdated"]
    assert updates == [
        ([f"private-kiosk.{second_kiosk.pk}"], {"session_id": second, "queue": status(second_kiosk, second)["queue"]})
    ]


def test_an_agent_coming_back_updates_agents_available(business, owner, agent_client, agent, broadcasts):
    from apps.accounts.models import User

    User.objects.filter(pk=agent.pk).update(agent_status=AgentStatus.BREAK)
    kiosk = factories.KioskFactory(business=business)
    session_id = start(kiosk)
    assert status(kiosk, session_id)["queue"]["agents_available"] == 0
    broadcasts.clear()
    assert agent_client.post("/api/agent/status", {"status": "available"}).status_code == 200
    assert status(kiosk, session_id)["queue"]["agents_available"] == 1
    [(channels, data)] = [(c, d) for c, e, d in broadcasts if e == "QueueUpdated"]
    assert data["queue"]["agents_available"] == 1


def test_another_owners_line_and_agents_do_not_count(business, owner, other_business):
    factories.AgentFactory(owner=other_business.owner)
    start(factories.KioskFactory(business=other_business))
    kiosk = factories.KioskFactory(business=business)
    session_id = start(kiosk)
    assert status(kiosk, session_id)["queue"] == {
        "position": 1,
        "estimated_wait_seconds": None,
        "agents_available": 0,
        "self_service_after_seconds": 120,
    }
    other_kiosk = factories.KioskFactory(business=other_business)
    assert kiosk_client_for(other_kiosk).get(f"/api/public/sessions/{session_id}/status").status_code == 404


def test_platform_agents_count_for_every_owner(business, owner):
    factories.AgentFactory(owner=None)
    kiosk = factories.KioskFactory(business=business)
    session_id = start(kiosk)
    offers.offers_dispatch()
    assert status(kiosk, session_id)["queue"]["agents_available"] == 1


@pytest.mark.live
@pytest.mark.django_db(transaction=True)
def test_a_kiosk_hears_its_place_move_over_a_real_websocket(live_app, business, owner):
    first_kiosk, second_kiosk = factories.KioskFactory(business=business), factories.KioskFactory(business=business)
    first = {"X-Device-Id": str(first_kiosk.device_id), "X-Device-Token": first_kiosk.raw_token}
    second = {"X-Device-Id": str(second_kiosk.device_id), "X-Device-Token": second_kiosk.raw_token}
    server = live_app()

    async def scenario():
        body = {"device_id": str(first_kiosk.device_id), "customer_locale": "en-US"}
        status_code, ahead = await asyncio.to_thread(http, server, "POST", "/api/public/sessions/start", body, first)
        assert status_code == 201, ahead
        channel = f"private-kiosk.{second_kiosk.pk}"
        socket = await subscribe_via(server, "/api/public/broadcasting/auth", second, channel)
        body = {"device_id": str(second_kiosk.device_id), "customer_locale": "es-ES"}
        status_code, mine = await asyncio.to_thread(http, server, "POST", "/api/public/sessions/start", body, second)
        assert status_code == 201, mine
        update = await socket.next("QueueUpdated")
        assert update["data"] == {
            "session_id": mine["session_id"],
            "queue": {
                "position": 2,
                "estimated_wait_seconds": None,
                "agents_available": 0,
                "self_service_after_seconds": 120,
            },
        }
        cancel = f"/api/public/sessions/{ahead['session_id']}/cancel"
        status_code, _ = await asyncio.to_thread(http, server, "POST", cancel, {}, first)
        assert status_code == 200
        update = await socket.next("QueueUpdated")
        assert update["data"]["queue"]["position"] == 1
        poll = f"/api/public/sessions/{mine['session_id']}/status"
        status_code, polled = await asyncio.to_thread(http, server, "GET", poll, None, second)
        assert polled["queue"] == update["data"]["queue"]
        await socket.close()

    run(scenario())


def test_the_pool_knows_which_available_agents_are_free_and_what_they_speak(business, owner):
    english = factories.AgentFactory(owner=owner, languages=["en"])
    factories.AgentFactory(owner=owner, languages=["es", "en"])
    factories.AgentFactory(owner=owner, languages=["fr"], agent_status=AgentStatus.BREAK)  # not available
    factories.AgentFactory(owner=business.owner, languages=["de"], is_active=False)  # disabled
    waiting = factories.SessionFactory(kiosk=factories.KioskFactory(business=business))
    Offer.objects.create(session=waiting, agent=english, expires_at=timezone.now() + timedelta(seconds=15))
    pool = queue_module._pool(owner.pk, timezone.now())
    assert sorted(map(sorted, pool.available_languages)) == [["en"], ["en", "es"]]
    assert pool.free_languages == (frozenset({"es", "en"}),)  # the English agent holds an offer
    assert pool.offer_size == 3 and pool.any_language_after == 30  # the ROUTING_* defaults


def test_an_agent_in_a_video_conversation_with_a_seat_free_answers_chats_first(business, owner):
    """Three seats, one agent, 60 s into a video conversation: a waiting chat counts it as free,
    a waiting video customer waits for the conversation to go to payment."""
    from apps.routing.models import RoutingSettings
    from apps.routing.routing_settings import defaults

    RoutingSettings.objects.create(owner=owner, **{**defaults().__dict__, "agent_capacity": 3})
    with time_machine.travel(timezone.now(), tick=False):
        now = timezone.now()
        for _ in range(5):
            answered(business, waited=5, handled=100, ago=200)
        agent = factories.AgentFactory(owner=owner, agent_status=AgentStatus.AVAILABLE)
        factories.SessionFactory(
            kiosk=factories.KioskFactory(business=business),
            status="active",
            agent=agent,
            accepted_at=now - timedelta(seconds=60),
        )
        video = factories.SessionFactory(kiosk=factories.KioskFactory(business=business), created_at=now)
        chat = factories.SessionFactory(kiosk=factories.KioskFactory(business=business), created_at=now, medium="chat")
        pool = queue_module._pool(owner.pk, now)
        assert (pool.available, pool.video_available, pool.video_serving_for, pool.seats_held) == (1, 0, (60.0,), 0)
        video_wait = queue_of(video)["estimated_wait_seconds"]  # type: ignore[index]
        chat_wait = queue_of(chat)["estimated_wait_seconds"]  # type: ignore[index]
        assert chat_wait is not None and chat_wait <= 10  # position 2, but a seat is free
        assert video_wait is not None and video_wait > 30, (video_wait, chat_wait)
