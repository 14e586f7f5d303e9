"""No row lock, no open transaction and no pooled connection is held while the processor is
called (PostgreSQL: real commits, a second connection). While the stand-in is answering, another
connection can SELECT ... FOR UPDATE NOWAIT the session, order and payment rows, the kiosk's
status read answers at once, and the same change asked again is 409 PROCESSOR_CALL_IN_PROGRESS.
Before, the session (or order) row stayed locked for the whole call."""

import pytest
from django.db import connection, connections, transaction

from apps.accounts.actors import user_actor
from apps.billing.models import Payment, ProcessorCall, Refund
from apps.billing.services import refunds
from apps.core.errors import DomainError
from apps.orders.models import Order
from apps.sessions.models import Session
from tests import factories
from tests.conftest import AgentClient
from tests.support.payments import intent_event, post_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


class Probe:
    """Run by the stand-in, in its own thread, while it answers the first call of `path`: it
    records what another connection and another client see at that moment."""

    def __init__(self, processor, path: str, session: Session, kiosk_client, again=None, side_request=None):
        self.path, self.session, self.again, self.side_request = path, session, again, side_request
        self.kiosk_client = kiosk_client
        self.request_connection = connections["default"]  # this thread's: it serves the request
        self.seen: dict = {}
        processor.during_call = self

    def __call__(self, call) -> None:
        if call.path != self.path or self.seen:
            return
        try:
            self.seen["in_transaction"] = self.request_connection.in_atomic_block
            if self.request_connection.pool is not None:
                self.seen["holds_pooled_connection"] = self.request_connection.connection is not None
            with transaction.atomic():
                Session.objects.select_for_update(nowait=True).get(pk=self.session.pk)
                list(Order.objects.select_for_update(nowait=True).filter(session=self.session))
                list(Payment.objects.select_for_update(nowait=True).filter(order__session=self.session))
            self.seen["rows_lockable"] = True
            status = self.kiosk_client.get(f"/api/public/sessions/{self.session.public_id}/status")
            self.seen["kiosk_sees"] = status.json()["status"]
            if self.again is not None:
                self.seen["again"] = self.again()
            if self.side_request is not None:
                self.seen["side_request"] = self.side_request()
        except Exception as exc:  # asserted by the test: a lock or a crash must not look like success
            self.seen["error"] = repr(exc)
        finally:
            connection.close()


def expected(status: str) -> dict:
    return {"in_transaction": False, "rows_lockable": True, "kiosk_sees": status, "again": "PROCESSOR_CALL_IN_PROGRESS"}


def seen_without_pool(probe: Probe) -> dict:
    if "holds_pooled_connection" in probe.seen:
        assert probe.seen.pop("holds_pooled_connection") is False, "the pooled connection was kept during the call"
    return probe.seen


def twin_of(agent_client: AgentClient) -> AgentClient:
    twin = AgentClient()
    twin.cookies = agent_client.cookies
    return twin


def code_of(response) -> str:
    return response.json()["error"]["code"] if response.status_code >= 400 else str(response.status_code)


def test_send_to_payment(agent_client, cart_session, processor, billing, kiosk_events, kiosk_client):
    url = f"/api/sessions/{cart_session.public_id}/payment"
    twin = twin_of(agent_client)
    probe = Probe(processor, "/v1/payment_intents", cart_session, kiosk_client, again=lambda: code_of(twin.post(url)))
    response = agent_client.post(url)
    assert response.status_code == 200, response.content
    assert seen_without_pool(probe) == expected("active")
    assert Session.objects.get(pk=cart_session.pk).status == "payment" and not ProcessorCall.objects.exists()
    assert len(processor.calls_to("/v1/payment_intents")) == 1


@pytest.mark.parametrize("action", ["cancel", "end"])
def test_cancel_and_end_in_payment(action, agent_client, cart_session, processor, billing, kiosk_events, kiosk_client):
    agent_client.post(f"/api/sessions/{cart_session.public_id}/payment")
    url, body = {
        "cancel": (f"/api/sessions/{cart_session.public_id}/payment/cancel", None),
        "end": (f"/api/sessions/{cart_session.public_id}/end", {"reason": "customer_abandoned"}),
    }[action]
    twin = twin_of(agent_client)
    intent_id = Payment.objects.get().intent_id
    path = f"/v1/payment_intents/{intent_id}/cancel"
    probe = Probe(processor, path, cart_session, kiosk_client, again=lambda: code_of(twin.post(url, body)))
    response = agent_client.post(url, body)
    assert response.status_code == 200, response.content
    assert seen_without_pool(probe) == expected("payment")
    assert Session.objects.get(pk=cart_session.pk).status == {"cancel": "active", "end": "abandoned"}[action]
    assert Payment.objects.get().status == "canceled" and not ProcessorCall.objects.exists()
    assert len(processor.calls_to(path)) == 1


def test_refund(agent_client, cart_session, processor, billing, kiosk_events, kiosk_client, owner):
    from django.test import Client

    agent_client.post(f"/api/sessions/{cart_session.public_id}/payment")
    post_event(Client(), intent_event("payment_intent.succeeded", Payment.objects.get()))
    order, manager = Order.objects.get(), factories.PanelUserFactory(owner=owner, panel_role="manager")

    def again() -> str:
        try:
            refunds.refund_order(order_id=order.pk, actor=user_actor(manager), amount_cents=100)
        except DomainError as exc:
            return exc.code
        return "refunded twice"

    probe = Probe(processor, "/v1/refunds", cart_session, kiosk_client, again=again)
    refund = refunds.refund_order(order_id=order.pk, actor=user_actor(manager), reason="cold fries")
    assert refund.amount_cents == 2175 and Order.objects.get().status == "refunded"
    assert seen_without_pool(probe) == expected("completed")
    assert Refund.objects.count() == 1 and not ProcessorCall.objects.exists()


def test_a_cart_changed_while_the_intent_is_created_is_not_sent(
    agent_client, cart_session, processor, billing, kiosk_events, kiosk_client, menu_item
):
    """The cart stays editable during the call (the session is still active); if its total moved,
    the intent (for the old total) is not recorded and the agent is asked to send again."""
    twin = twin_of(agent_client)
    line = {"menu_item_id": str(menu_item.pk), "quantity": 3, "modifier_option_ids": [], "notes": ""}
    probe = Probe(
        processor,
        "/v1/payment_intents",
        cart_session,
        kiosk_client,
        side_request=lambda: code_of(twin.post("/api/orders", {"session_id": cart_session.public_id, "lines": [line]})),
    )
    response = agent_client.post(f"/api/sessions/{cart_session.public_id}/payment")
    assert probe.seen["side_request"] == "200", probe.seen
    assert response.status_code == 409 and code_of(response) == "INVALID_STATE", response.content
    assert "cart changed" in response.json()["error"]["message"]
    assert Session.objects.get(pk=cart_session.pk).status == "active" and not Payment.objects.exists()
    assert not ProcessorCall.objects.exists() and kiosk_events == []
    assert agent_client.post(f"/api/sessions/{cart_session.public_id}/payment").status_code == 200
    assert Payment.objects.get().amount_cents == Order.objects.get().total_cents
