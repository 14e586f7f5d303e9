"""The kiosk is told when its card reader refuses the agent's send to payment (offline, or busy
with another payment), with the real `stripe` library against the demo processor: the refusal is
kept with the session, the kiosk's status body says it as `reader_refusal` (a cached copy read
before it is not served again) and ReaderRefused tells the kiosk's channel; a send that goes
through, or the session moving on, clears it. The customer paying alone is told in the answer to
their own Pay, so nothing is kept for them; another owner's kiosk sees nothing."""

import pytest

from apps.billing.models import ReaderRefusal
from apps.billing.services import reader_refusals
from apps.core.errors import DomainError, ErrorCode
from apps.demo_processor import terminal as demo_terminal
from tests import factories
from tests.billing.test_reader_first_send import busy_with_another_payment
from tests.billing.test_reader_payments import ACCOUNT, held_intent, send_to_payment
from tests.conftest import kiosk_client_for
from tests.support.auth import error_of
from tests.support.schema_conformance import assert_conforms
from tests.support.transfers import signed_in_client


def status_of(kiosk_client, session) -> dict:
    response = kiosk_client.get(f"/api/public/sessions/{session.public_id}/status")
    assert response.status_code == 200, response.content
    return response.json()


def refused_messages(kiosk_events) -> list[dict]:
    return [data for _, event, data in kiosk_events if event == "ReaderRefused"]


@pytest.mark.parametrize(("code", "reason"), [("READER_OFFLINE", "offline"), ("READER_BUSY", "busy")])
def test_the_status_body_says_the_refusal_until_a_retry_goes_through(
    agent_client, cart_session, kiosk, kiosk_client, reader, kiosk_events, on_commit, code, reason
):
    assert status_of(kiosk_client, cart_session)["reader_refusal"] is None  # the poll's copy is cached now
    if reason == "offline":
        demo_terminal.reader_set_status(reader.reader_id, online=False)
    else:
        busy_with_another_payment(reader)

    error_of(on_commit(send_to_payment, agent_client, cart_session), 409, code)
    body = status_of(kiosk_client, cart_session)
    assert body["status"] == "active"
    refusal = body["reader_refusal"]
    assert refusal["reason"] == reason and refusal["refused_at"].endswith("Z")
    assert_conforms(body, "StatusOut")
    assert refused_messages(kiosk_events) == [{"session_id": cart_session.public_id, "reader_refusal": refusal}]
    [(channels, _, _)] = [sent for sent in kiosk_events if sent[1] == "ReaderRefused"]
    assert channels == [f"private-kiosk.{kiosk.pk}"]
    stored = ReaderRefusal.objects.get()
    assert (stored.session_id, stored.owner_id, stored.reader_id) == (
        cart_session.pk,
        kiosk.business.owner_id,
        reader.pk,
    )

    # Refused again: the one refusal, said anew.
    error_of(on_commit(send_to_payment, agent_client, cart_session), 409, code)
    assert ReaderRefusal.objects.count() == 1 and len(refused_messages(kiosk_events)) == 2

    if reason == "offline":
        demo_terminal.reader_set_status(reader.reader_id, online=True)
    else:
        demo_terminal.reader_cancel_action(account_id=ACCOUNT, reader_id=reader.reader_id)
    assert on_commit(send_to_payment, agent_client, cart_session).status_code == 200
    body = status_of(kiosk_client, cart_session)
    assert (body["status"], body["reader_refusal"]) == ("payment", None)
    assert not ReaderRefusal.objects.exists()
    assert held_intent(reader) is not None


def test_the_refusal_ends_with_the_session(agent_client, cart_session, kiosk_client, reader, on_commit):
    demo_terminal.reader_set_status(reader.reader_id, online=False)
    error_of(on_commit(send_to_payment, agent_client, cart_session), 409, "READER_OFFLINE")
    assert ReaderRefusal.objects.exists()
    ended = on_commit(
        agent_client.post,
        f"/api/sessions/{cart_session.public_id}/end",
        {"reason": "customer_abandoned", "notes": ""},
    )
    assert ended.status_code == 200, ended.content
    assert not ReaderRefusal.objects.exists()
    assert status_of(kiosk_client, cart_session)["reader_refusal"] is None


def test_the_refusal_ends_when_a_colleague_takes_the_session_over(
    agent, agent_client, cart_session, kiosk_client, reader, on_commit
):
    demo_terminal.reader_set_status(reader.reader_id, online=False)
    error_of(on_commit(send_to_payment, agent_client, cart_session), 409, "READER_OFFLINE")
    colleague = factories.AgentFactory(owner=agent.owner, name="Bea")
    colleague_client = signed_in_client(colleague)
    offered = on_commit(
        agent_client.post, f"/api/sessions/{cart_session.public_id}/transfer", {"to_agent_id": colleague.pk}
    )
    assert offered.status_code == 202, offered.content
    assert status_of(kiosk_client, cart_session)["reader_refusal"] is not None  # Ada still serves
    taken = on_commit(colleague_client.post, f"/api/sessions/{cart_session.public_id}/accept")
    assert taken.status_code == 200, taken.content
    body = status_of(kiosk_client, cart_session)
    assert (body["agent"]["name"], body["reader_refusal"]) == ("Bea", None)  # Bea has not tried yet
    assert not ReaderRefusal.objects.exists()


def test_a_payment_taken_back_does_not_bring_an_old_refusal_back(
    agent_client, cart_session, kiosk_client, reader, on_commit
):
    demo_terminal.reader_set_status(reader.reader_id, online=False)
    error_of(on_commit(send_to_payment, agent_client, cart_session), 409, "READER_OFFLINE")
    demo_terminal.reader_set_status(reader.reader_id, online=True)
    assert on_commit(send_to_payment, agent_client, cart_session).status_code == 200
    cancelled = on_commit(agent_client.post, f"/api/sessions/{cart_session.public_id}/payment/cancel")
    assert cancelled.status_code == 200, cancelled.content
    body = status_of(kiosk_client, cart_session)
    assert (body["status"], body["reader_refusal"]) == ("active", None)


def test_another_owners_kiosk_and_another_kiosk_see_nothing_of_it(
    agent_client, cart_session, kiosk, reader, on_commit, other_business
):
    demo_terminal.reader_set_status(reader.reader_id, online=False)
    error_of(on_commit(send_to_payment, agent_client, cart_session), 409, "READER_OFFLINE")
    path = f"/api/public/sessions/{cart_session.public_id}/status"
    foreign = kiosk_client_for(factories.KioskFactory(business=other_business))
    error_of(foreign.get(path), 404, "SESSION_NOT_FOUND")
    neighbour = kiosk_client_for(factories.KioskFactory(business=kiosk.business))
    error_of(neighbour.get(path), 404, "SESSION_NOT_FOUND")


def test_a_customer_alone_reads_it_in_their_own_answer_and_nothing_is_kept(
    alone, kiosk_client, reader, kiosk_events, on_commit
):
    demo_terminal.reader_set_status(reader.reader_id, online=False)
    response = on_commit(kiosk_client.post, f"/api/public/sessions/{alone.public_id}/payment")
    error_of(response, 409, "READER_OFFLINE")
    assert not ReaderRefusal.objects.exists() and not refused_messages(kiosk_events)
    assert status_of(kiosk_client, alone)["reader_refusal"] is None


def test_a_refusal_that_arrives_after_the_session_moved_on_is_not_kept(agent, cart_session, reader, kiosk_events):
    """The session moved between the reader's refusal and its recording (another send went through,
    it ended, another agent took it): nothing is kept and the kiosk is told nothing."""
    ended = factories.SessionFactory(kiosk=cart_session.kiosk, status="abandoned", agent=agent)
    reader_refusals.record(session=ended, reader=reader, code=ErrorCode.READER_OFFLINE, check=lambda session: None)
    colleague = factories.AgentFactory(owner=agent.owner)

    def not_the_colleagues(session):
        if session.agent_id != colleague.pk:
            raise DomainError(ErrorCode.SESSION_NOT_OWNED, "Not yours.")

    reader_refusals.record(session=cart_session, reader=reader, code=ErrorCode.READER_OFFLINE, check=not_the_colleagues)
    reader_refusals.record(session=cart_session, reader=reader, code=ErrorCode.PROCESSOR_ERROR, check=lambda _: None)
    assert not ReaderRefusal.objects.exists() and not refused_messages(kiosk_events)
