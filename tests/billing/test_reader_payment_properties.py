"""The card-reader payment under random interleavings: taps approved or declined, the agent taking
the payment back or ending the session, the processor's events held back, delivered out of order,
delivered again or never, and the reconciliation sweep running at any point. The real services,
the real `stripe` library and the demo processor in this process. Whatever happens:

- an order is confirmed at most once (one order.created, one succeeded payment);
- a confirmed order has a succeeded payment whose intent succeeded;
- after the sweep, an intent that succeeded has its confirmed order or its refund;
- the reader holds no intent of a session that has left payment (after the sweep, and in fact
  after every step: the reader is never offline here).
"""

import contextlib
import json
import secrets
import time

import hypothesis
import pytest
from django.urls import resolve
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from apps.billing import processor, tasks
from apps.billing.models import Payment, PaymentStatus, Refund
from apps.billing.services import payments, readers
from apps.core.errors import DomainError
from apps.core.models import DomainEvent
from apps.demo_processor import processor_webhooks
from apps.demo_processor import services as demo_processor
from apps.demo_processor.models import DemoIntentStatus, DemoPaymentIntent, DemoReader
from apps.orders import services as order_services
from apps.orders.models import Order, OrderStatus
from apps.sessions import ending
from apps.sessions import services as session_services
from apps.sessions.models import Session, SessionStatus
from tests import factories

ACCOUNT = "acct_demo_reader_props"
APPROVED, DECLINED = "4242424242424242", "4000000000000002"
CONFIRMED = (OrderStatus.CONFIRMED, OrderStatus.PREPARING, OrderStatus.READY, OrderStatus.COMPLETED)


def post(event: dict) -> None:
    """Deliver one event to the service's webhook, signed, as the processor does."""
    request = processor_webhooks.signed_request(json.dumps(event), processor_webhooks.signing_secret())
    response = resolve(processor_webhooks.WEBHOOK_PATH).func(request)
    assert response.status_code == 200, response.content


def held_intent(reader_id: str) -> str | None:
    action = DemoReader.objects.get(reader_id=reader_id).action
    if not action or action["status"] != "in_progress":
        return None
    intent_id: str = action["process_payment_intent"]["payment_intent"]
    return intent_id


@pytest.mark.django_db
def test_reader_payments_hold_their_invariants_under_any_interleaving(
    business, owner, django_capture_on_commit_callbacks, monkeypatch, settings
):
    demo_processor.account_open(ACCOUNT)
    factories.OwnerBillingFactory(owner=owner, account_id=ACCOUNT, charges_enabled=True, payouts_enabled=True)
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    item = factories.MenuItemFactory(category=category, name="Burger", price_cents=1000, track_stock=False)
    settings.PAYMENT_RECONCILE_AFTER_SECONDS = 0
    held_back: list[dict] = []  # the processor's events on their way, made (id, time) when sent

    def hold(kind: str, obj: dict, *, account: str) -> None:
        event_id = "evt_demo_" + secrets.token_hex(10)
        created = int(time.time())
        held_back.append({"id": event_id, "object": "event", "type": kind, "created": created, "account": account})
        held_back[-1].update(livemode=False, data={"object": obj})

    monkeypatch.setattr(processor_webhooks, "send", hold)

    def committed(action, *args, **kwargs):
        """Run as a request would: its after-commit work (jobs, messages) runs when it ends."""
        with django_capture_on_commit_callbacks(execute=True):
            return action(*args, **kwargs)

    class ReaderPayments(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            held_back.clear()
            self.delivered: list[dict] = []
            kiosk = factories.KioskFactory(business=business)
            self.agent = factories.AgentFactory(owner=owner)
            self.reader = readers.reader_register(kiosk=kiosk, registration_code="simulated-wpe", label="Counter")
            pending = factories.SessionFactory(kiosk=kiosk)
            session = session_services.session_accept(public_id=pending.public_id, agent=self.agent)
            line = {"menu_item_id": str(item.pk), "quantity": 2, "modifier_option_ids": [], "notes": ""}
            order_services.cart_replace(agent=self.agent, session_public_id=session.public_id, lines=[line])
            self.public_id = session.public_id
            self.order = Order.objects.get(session=session)
            self.swept = False

        def session(self) -> Session:
            return Session.objects.get(public_id=self.public_id)

        def refused(self, action, **kwargs) -> None:
            with contextlib.suppress(DomainError):  # refused as the API would (409, 502): nothing changed
                committed(action, **kwargs)
            self.swept = False

        @rule()
        def send_to_payment(self) -> None:
            self.refused(payments.payment_request, public_id=self.public_id, agent=self.agent)

        @rule(approved=st.booleans())
        def tap(self, approved: bool) -> None:
            if held_intent(self.reader.reader_id) is None:
                return
            committed(
                processor.client().v1.test_helpers.terminal.readers.present_payment_method,
                self.reader.reader_id,
                params={"type": "card_present", "card_present": {"number": APPROVED if approved else DECLINED}},
                options={"stripe_account": ACCOUNT},
            )
            self.swept = False

        @rule()
        def take_back(self) -> None:
            self.refused(payments.payment_cancel, public_id=self.public_id, agent=self.agent)

        @rule()
        def end_session(self) -> None:
            self.refused(
                ending.session_end, public_id=self.public_id, agent=self.agent, reason="customer_abandoned", notes=""
            )

        @precondition(lambda self: held_back)
        @rule(data=st.data())
        def deliver_one(self, data: st.DataObject) -> None:
            """Any held event, not necessarily the oldest: out of order."""
            event = held_back.pop(data.draw(st.integers(0, len(held_back) - 1)))
            committed(post, event)
            self.delivered.append(event)
            self.swept = False

        @precondition(lambda self: self.delivered)
        @rule(data=st.data(), same_id=st.booleans())
        def deliver_again(self, data: st.DataObject, same_id: bool) -> None:
            """The processor sends an event again (same id), or the same change twice (a new id)."""
            event = dict(data.draw(st.sampled_from(self.delivered)))
            if not same_id:
                event["id"] = "evt_demo_" + secrets.token_hex(10)
            committed(post, event)
            self.swept = False

        @precondition(lambda self: held_back)
        @rule(data=st.data())
        def lose_one(self, data: st.DataObject) -> None:
            held_back.pop(data.draw(st.integers(0, len(held_back) - 1)))

        @rule()
        def sweep(self) -> None:
            committed(tasks.reconcile_payments)
            self.swept = True

        @invariant()
        def confirmed_once_and_only_when_paid(self) -> None:
            created = DomainEvent.objects.filter(name="order.created", payload__order_id=self.order.pk).count()
            assert created <= 1
            succeeded = list(Payment.objects.filter(order=self.order, status=PaymentStatus.SUCCEEDED))
            assert len(succeeded) <= 1
            order = Order.objects.get(pk=self.order.pk)
            if order.status in CONFIRMED:
                assert created == 1 and succeeded
                intent = DemoPaymentIntent.objects.get(intent_id=succeeded[0].intent_id)
                assert intent.status == DemoIntentStatus.SUCCEEDED

        @invariant()
        def after_the_sweep_no_charge_is_left_without_its_order_or_refund(self) -> None:
            if not self.swept:
                return
            order = Order.objects.get(pk=self.order.pk)
            for payment in Payment.objects.filter(order=self.order):
                intent = DemoPaymentIntent.objects.get(intent_id=payment.intent_id)
                if intent.status != DemoIntentStatus.SUCCEEDED:
                    continue
                ordered = payment.status == PaymentStatus.SUCCEEDED and order.status in CONFIRMED
                refunded = Refund.objects.filter(payment=payment, amount_cents=payment.amount_cents).exists()
                assert ordered or refunded, (payment.status, order.status, payment.late_success_at)

        @invariant()
        def the_reader_waits_only_for_a_payment_in_progress(self) -> None:
            """Stronger than "after the sweep": taking back and ending stop the reader at once (it
            is never offline here), so this holds after every step."""
            held = held_intent(self.reader.reader_id)
            if held is not None:
                payment = Payment.objects.get(intent_id=held)
                assert self.session().status == SessionStatus.PAYMENT, (held, self.session().status)
                assert payment.status in (PaymentStatus.REQUIRES_PAYMENT_METHOD, PaymentStatus.FAILED)

    run_state_machine_as_test(
        ReaderPayments,
        settings=hypothesis.settings(
            max_examples=25,
            stateful_step_count=14,
        ),
    )
