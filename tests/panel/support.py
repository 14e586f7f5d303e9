"""Data for panel tests: a confirmed (paid) order made the way production makes one."""

from django.test import Client

from apps.billing.models import Payment
from apps.orders.models import Order
from tests.payments_support import post_event, processor_event


def confirm_order(agent_client, session) -> Order:
    """Send the session's cart to payment through the agent API and let the processor confirm it."""
    response = agent_client.post(f"/api/sessions/{session.public_id}/payment")
    assert response.status_code == 200, response.content
    intent_id = Payment.objects.get(order__session=session).intent_id
    event = processor_event("payment_intent.succeeded", {"id": intent_id, "object": "payment_intent"})
    assert post_event(Client(), event).status_code == 200
    order = Order.objects.get(session=session)
    assert order.status == "confirmed"
    return order
