"""An agent accepts at the same moment as a self-service customer pays (PostgreSQL: real commits,
concurrent connections): exactly one wins. If the accept wins, the kiosk gets 409
SESSION_ALREADY_ACCEPTED and the intent made for it is cancelled; if the payment wins, the agent
gets 409 SESSION_ALREADY_ACCEPTED and the customer pays alone."""

import threading

import pytest
from django.db import connection

from apps.billing.models import Payment, ProcessorCall
from apps.billing.services import payments
from apps.core.errors import DomainError
from apps.orders import services as order_services
from apps.sessions import services as session_services
from apps.sessions.models import Session
from tests import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def waiting_with_cart(business, menu_item) -> Session:
    kiosk = factories.KioskFactory(business=business)
    session = factories.SessionFactory(kiosk=kiosk)
    line = {"menu_item_id": str(menu_item.pk), "quantity": 1, "modifier_option_ids": [], "notes": ""}
    order_services.cart_replace_by_kiosk(kiosk=kiosk, session_public_id=session.public_id, lines=[line])
    return session


def test_an_accept_during_the_processor_call_wins_and_the_intent_is_cancelled(
    business, agent, menu_item, processor, billing
):
    session = waiting_with_cart(business, menu_item)
    accepted = {}

    def accept_meanwhile(call) -> None:  # the stand-in's thread, while it makes the intent
        if call.path != "/v1/payment_intents" or accepted:
            return
        try:
            accepted["status"] = session_services.session_accept(public_id=session.public_id, agent=agent).status
        except Exception as exc:  # asserted below
            accepted["error"] = repr(exc)
        finally:
            connection.close()

    processor.during_call = accept_meanwhile
    with pytest.raises(DomainError) as lost:
        payments.payment_request_by_kiosk(public_id=session.public_id, kiosk=session.kiosk)
    assert accepted == {"status": "active"}
    assert lost.value.code == "SESSION_ALREADY_ACCEPTED" and lost.value.status == 409
    session.refresh_from_db()
    assert session.status == "active" and session.agent_id == agent.pk
    [created] = processor.intents
    assert processor.calls_to(f"/v1/payment_intents/{created}/cancel"), "the intent nobody will pay is cancelled"
    assert not Payment.objects.exists() and not ProcessorCall.objects.exists()
    assert session.order.status == "draft"  # the agent takes the cart over as it was


@pytest.mark.parametrize("round_", range(4))
def test_accept_and_payment_at_once_exactly_one_wins(round_, business, menu_item, processor, billing):
    session = waiting_with_cart(business, menu_item)
    agent = factories.AgentFactory(owner=business.owner)
    barrier = threading.Barrier(2)
    outcome: dict[str, str] = {}

    def run(name, act) -> None:
        try:
            barrier.wait()
            act()
            outcome[name] = "won"
        except DomainError as exc:
            outcome[name] = exc.code
        except Exception as exc:  # asserted below: anything else is a failure
            outcome[name] = repr(exc)
        finally:
            connection.close()

    threads = [
        threading.Thread(
            target=run,
            args=("kiosk", lambda: payments.payment_request_by_kiosk(public_id=session.public_id, kiosk=session.kiosk)),
        ),
        threading.Thread(
            target=run,
            args=("agent", lambda: session_services.session_accept(public_id=session.public_id, agent=agent)),
        ),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcome.values()) == ["SESSION_ALREADY_ACCEPTED", "won"], outcome
    session.refresh_from_db()
    if outcome["kiosk"] == "won":
        assert session.status == "payment" and session.agent_id is None
        assert Payment.objects.get().status == "requires_payment_method"
    else:
        assert session.status == "active" and session.agent_id == agent.pk
        assert not Payment.objects.exists()
        for intent_id in processor.intents:  # made before the accept was seen: cancelled
            assert processor.calls_to(f"/v1/payment_intents/{intent_id}/cancel")
    assert not ProcessorCall.objects.exists()
