"""Data and helpers for panel tests: a confirmed (paid) order made the way production makes one,
the page's flash messages, the current TOTP code of a device."""

from django.test import Client
from django_otp.oath import totp

from apps.accounts.models import SealedTotpDevice
from apps.billing.models import Payment
from apps.orders.models import Order
from tests import factories
from tests.support.payments import intent_event, post_event


def confirm_order(agent_client, session) -> Order:
    """Send the session's cart to payment through the agent API and let the processor confirm it."""
    response = agent_client.post(f"/api/sessions/{session.public_id}/payment")
    assert response.status_code == 200, response.content
    event = intent_event("payment_intent.succeeded", Payment.objects.get(order__session=session))
    assert post_event(Client(), event).status_code == 200
    order = Order.objects.get(session=session)
    assert order.status == "confirmed"
    return order


def demo_activity(business, kiosk, agents, *, days: int = 7) -> None:
    """A week of ended sessions and paid orders on the demo data, so the dashboard and lists
    have something to show (history written directly: the panel only reads it)."""
    from datetime import timedelta

    from django.utils import timezone

    from apps.menu.models import MenuItem

    items = list(MenuItem.objects.filter(category__catalog__business=business, active=True)[:4])
    now = timezone.now()
    reasons = [("completed", "completed")] * 5 + [("abandoned", "customer_abandoned"), ("failed", "technical_issue")]
    statuses = ["completed", "completed", "ready", "preparing", "confirmed"]
    n = 0
    for day in reversed(range(days)):  # oldest first, so order numbers rise with time
        for slot in reversed(range(2 + (day * 3) % 5)):
            n += 1
            created = now - timedelta(days=day, hours=1 + slot, minutes=7 * slot)
            status, reason = reasons[n % len(reasons)]
            session = factories.SessionFactory(
                kiosk=kiosk,
                agent=agents[n % len(agents)],
                status=status,
                created_at=created,
                accepted_at=created + timedelta(seconds=8 + (n * 7) % 40),
                ended_at=created + timedelta(seconds=120 + (n * 37) % 300),
                end_reason=reason,
                notes="Asked for extra napkins" if n % 4 == 0 else "",
            )
            if status != "completed":
                continue
            item = items[n % len(items)]
            quantity = 1 + n % 3
            subtotal = item.price_cents * quantity
            tax = (subtotal * business.tax_rate_bps + 5000) // 10000
            business.order_sequence += 1
            order = factories.OrderFactory(
                session=session,
                number=str(business.order_sequence),
                status=statuses[n % len(statuses)] if day == 0 else "completed",
                subtotal_cents=subtotal,
                tax_cents=tax,
                total_cents=subtotal + tax,
                created_at=session.ended_at,
                updated_at=session.ended_at,
            )
            factories.OrderLineFactory(
                order=order,
                position=0,
                menu_item=item,
                name=item.name,
                quantity=quantity,
                unit_price_cents=item.price_cents,
            )
            factories.PaymentFactory(
                order=order,
                account_id="acct_demo",
                intent_id=f"pi_demo_{order.pk}",
                client_secret="x",
                status="succeeded",
                succeeded_at=session.ended_at,
            )
    business.save(update_fields=["order_sequence"])


def current_code(device: SealedTotpDevice) -> str:
    return f"{totp(device.bin_key, step=device.step, t0=device.t0, digits=device.digits):06d}"


def messages_of(response) -> str:
    return " ".join(str(message) for message in response.context["messages"])
