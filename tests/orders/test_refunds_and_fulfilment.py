"""Fulfilment moves by owners and managers, refunds through the processor (never by agents),
and Connect onboarding."""

import pytest

from apps.accounts.actors import user_actor
from apps.billing.models import OwnerBilling, Payment, Refund
from apps.billing.services import connect, refunds
from apps.core.errors import DomainError
from apps.core.models import DomainEvent
from apps.orders import services as order_services
from apps.orders.models import Order
from tests import factories
from tests.support.payments import ACCOUNT


@pytest.fixture
def manager(owner):
    return factories.PanelUserFactory(owner=owner, panel_role="manager")


def test_owner_moves_the_order_through_fulfilment(confirmed_order, owner, manager):
    for status in ("preparing", "ready", "completed"):
        order_services.order_set_fulfilment_status(
            order_id=confirmed_order.pk, actor=user_actor(manager), status=status
        )
    confirmed_order.refresh_from_db()
    assert confirmed_order.status == "completed"
    changes = [e.payload for e in DomainEvent.objects.filter(name="order.status_changed").order_by("pk")]
    assert [(c["previous_status"], c["status"]) for c in changes][-3:] == [
        ("confirmed", "preparing"),
        ("preparing", "ready"),
        ("ready", "completed"),
    ]


def test_fulfilment_cannot_go_backwards_or_be_done_by_agents(confirmed_order, agent, manager):
    order_services.order_set_fulfilment_status(order_id=confirmed_order.pk, actor=user_actor(manager), status="ready")
    with pytest.raises(DomainError) as backwards:
        order_services.order_set_fulfilment_status(
            order_id=confirmed_order.pk, actor=user_actor(manager), status="preparing"
        )
    assert backwards.value.code == "INVALID_STATE"
    with pytest.raises(DomainError) as by_agent:
        order_services.order_set_fulfilment_status(
            order_id=confirmed_order.pk, actor=user_actor(agent), status="completed"
        )
    assert by_agent.value.code == "FORBIDDEN"


def test_another_owners_manager_cannot_touch_the_order(confirmed_order, other_business):
    stranger = factories.PanelUserFactory(owner=other_business.owner, panel_role="manager")
    with pytest.raises(DomainError) as move:
        order_services.order_set_fulfilment_status(
            order_id=confirmed_order.pk, actor=user_actor(stranger), status="ready"
        )
    with pytest.raises(DomainError) as refund:
        refunds.refund_order(order_id=confirmed_order.pk, actor=user_actor(stranger))
    assert move.value.code == refund.value.code == "NOT_FOUND"


def test_manager_refunds_in_full_through_the_processor(confirmed_order, manager, processor):
    refund = refunds.refund_order(order_id=confirmed_order.pk, actor=user_actor(manager), reason="cold fries")
    [call] = processor.calls_to("/v1/refunds")
    assert call.params["payment_intent"] == Payment.objects.get().intent_id and call.params["amount"] == "2175"
    assert call.headers["Stripe-Account"] == ACCOUNT and call.headers["Idempotency-Key"]
    assert refund.amount_cents == 2175 and refund.created_by == manager
    confirmed_order.refresh_from_db()
    assert confirmed_order.status == "refunded"
    assert DomainEvent.objects.filter(name="order.status_changed").last().payload["status"] == "refunded"


def test_partial_refunds_add_up_to_the_payment(confirmed_order, owner, processor):
    boss = factories.PanelUserFactory(owner=owner)
    refunds.refund_order(order_id=confirmed_order.pk, actor=user_actor(boss), amount_cents=500)
    confirmed_order.refresh_from_db()
    assert confirmed_order.status == "confirmed"
    with pytest.raises(DomainError) as too_much:
        refunds.refund_order(order_id=confirmed_order.pk, actor=user_actor(boss), amount_cents=1676)
    assert too_much.value.code == "VALIDATION_ERROR"
    refunds.refund_order(order_id=confirmed_order.pk, actor=user_actor(boss), amount_cents=1675)
    confirmed_order.refresh_from_db()
    assert confirmed_order.status == "refunded"
    assert sorted(Refund.objects.values_list("amount_cents", flat=True)) == [500, 1675]


def test_agents_never_refund(confirmed_order, agent, processor):
    with pytest.raises(DomainError) as refused:
        refunds.refund_order(order_id=confirmed_order.pk, actor=user_actor(agent))
    assert refused.value.code == "FORBIDDEN"
    assert processor.calls_to("/v1/refunds") == []


def test_an_unpaid_order_cannot_be_refunded(agent_client, cart_session, owner, processor, billing):
    with pytest.raises(DomainError) as refused:
        refunds.refund_order(order_id=Order.objects.get().pk, actor=user_actor(factories.PanelUserFactory(owner=owner)))
    assert refused.value.code == "REFUND_NOT_ALLOWED"


def test_connect_onboarding_creates_the_account_once(owner, processor):
    first = connect.onboarding_link(owner=owner, refresh_url="https://p/refresh", return_url="https://p/done")
    second = connect.onboarding_link(owner=owner, refresh_url="https://p/refresh", return_url="https://p/done")
    account_id = OwnerBilling.objects.get(owner=owner).account_id
    assert account_id.startswith("acct_") and first == second == f"https://connect.example/setup/{account_id}"
    assert len(processor.calls_to("/v1/accounts")) == 1
    assert processor.calls_to("/v1/account_links")[0].params["type"] == "account_onboarding"
