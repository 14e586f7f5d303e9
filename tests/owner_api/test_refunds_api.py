"""Owner API refunds (refunds:write): through the processor on the owner's connected account,
full by default or partial, with the order marked refunded once nothing is left; an unpaid
order is 409, a bad amount 422, another owner's order 404."""

from apps.billing.models import Payment, Refund
from apps.core.models import DomainEvent
from apps.orders.models import Order
from tests.support.auth import error_of
from tests.support.payments import ACCOUNT


def test_a_full_refund_goes_through_the_processor_and_marks_the_order_refunded(api, confirmed_order, processor):
    response = api.post(f"/api/owner/orders/{confirmed_order.pk}/refund", {"reason": "cold fries"})
    assert response.status_code == 201, response.content
    body = response.json()["data"]
    assert body["amount_cents"] == 2175 and body["order_id"] == confirmed_order.pk
    assert body["order_status"] == "refunded" and body["reason"] == "cold fries" and body["id"]
    [call] = processor.calls_to("/v1/refunds")
    assert call.params["payment_intent"] == Payment.objects.get().intent_id and call.params["amount"] == "2175"
    assert call.headers["Stripe-Account"] == ACCOUNT
    refund = Refund.objects.get()
    assert refund.refund_id == body["id"] and refund.created_by is None
    confirmed_order.refresh_from_db()
    assert confirmed_order.status == "refunded"
    assert DomainEvent.objects.filter(name="order.status_changed").last().payload["status"] == "refunded"


def test_partial_refunds_keep_the_status_until_the_rest_is_refunded(api, confirmed_order, processor):
    first = api.post(f"/api/owner/orders/{confirmed_order.pk}/refund", {"amount_cents": 500})
    assert first.status_code == 201 and first.json()["data"]["order_status"] == "confirmed"
    error = error_of(
        api.post(f"/api/owner/orders/{confirmed_order.pk}/refund", {"amount_cents": 1676}), 422, "VALIDATION_ERROR"
    )
    assert "amount_cents" in error["details"]
    rest = api.post(f"/api/owner/orders/{confirmed_order.pk}/refund", {})
    assert rest.status_code == 201 and rest.json()["data"]["amount_cents"] == 1675
    assert sorted(Refund.objects.values_list("amount_cents", flat=True)) == [500, 1675]
    error_of(api.post(f"/api/owner/orders/{confirmed_order.pk}/refund", {}), 409, "REFUND_NOT_ALLOWED")
    assert len(processor.calls_to("/v1/refunds")) == 2


def test_bad_amounts_are_422_before_the_processor_is_called(api, confirmed_order, processor):
    for body in ({"amount_cents": 0}, {"amount_cents": -5}, {"amount_cents": "lots"}, {"reason": "x" * 201}):
        error = error_of(api.post(f"/api/owner/orders/{confirmed_order.pk}/refund", body), 422, "VALIDATION_ERROR")
        assert set(error["details"]) & {"amount_cents", "reason"}, body
    assert processor.calls_to("/v1/refunds") == []


def test_an_unpaid_order_cannot_be_refunded(api, cart_session, processor, billing):
    draft = Order.objects.get(session=cart_session)
    error_of(api.post(f"/api/owner/orders/{draft.pk}/refund", {}), 409, "REFUND_NOT_ALLOWED")
    assert processor.calls_to("/v1/refunds") == []


def test_another_owners_order_is_not_found(api, stranger_order, processor):
    error_of(api.post(f"/api/owner/orders/{stranger_order.pk}/refund", {}), 404, "NOT_FOUND")
    assert processor.calls_to("/v1/refunds") == []
    assert not Refund.objects.exists()
