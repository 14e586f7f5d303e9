"""Printing tests: a fake network printer per printer, printers on the test business, and paid
orders made by the real flow (the agent's cart, the processor's succeeded event)."""

import pytest
from django.test import Client

from apps.billing.models import Payment
from apps.orders import services as order_services
from apps.orders.models import Order
from apps.printing.models import Printer, PrinterRole
from apps.sessions import services as session_services
from tests import factories
from tests.support.fake_printer import FakePrinter
from tests.support.payments import intent_event, post_event


@pytest.fixture(autouse=True)
def _quick_printers(settings):
    settings.PRINTER_TIMEOUT_SECONDS = 2
    settings.PRINT_RETRY_SECONDS = 0  # a printer that could not print is due again at once (tasks.sweep)


@pytest.fixture
def fake_printers():
    made: list[FakePrinter] = []

    def make() -> FakePrinter:
        made.append(FakePrinter())
        return made[-1]

    yield make
    for fake in made:
        fake.close()


def printer_at(fake: FakePrinter, business, **fields) -> Printer:
    fields.setdefault("name", "Kitchen")
    return Printer.objects.create(business=business, host=fake.host, port=fake.port, **fields)


@pytest.fixture
def menu(business):
    """A grill item with an option and a drink, in two categories of the business's menu."""
    catalog = factories.CatalogFactory(business=business)
    grill = factories.CategoryFactory(catalog=catalog, name="Grill")
    drinks = factories.CategoryFactory(catalog=catalog, name="Drinks")
    burger = factories.MenuItemFactory(category=grill, name="Burger", price_cents=1000)
    medium = factories.ModifierOptionFactory(
        group=factories.ModifierGroupFactory(item=burger, name="Doneness"), name="Medium"
    )
    cola = factories.MenuItemFactory(category=drinks, name="Cola", price_cents=300)
    return {"grill": grill, "drinks": drinks, "burger": burger, "medium": medium, "cola": cola}


@pytest.fixture
def ordering(kiosk, agent, menu):
    """An accepted session whose cart holds a medium burger (no onions) and two colas."""
    session = session_services.session_accept(public_id=factories.SessionFactory(kiosk=kiosk).public_id, agent=agent)
    lines = [
        {
            "menu_item_id": str(menu["burger"].pk),
            "quantity": 1,
            "modifier_option_ids": [str(menu["medium"].pk)],
            "notes": "no onions",
        },
        {"menu_item_id": str(menu["cola"].pk), "quantity": 2, "modifier_option_ids": [], "notes": ""},
    ]
    order_services.cart_replace(agent=agent, session_public_id=session.public_id, lines=lines)
    Order.objects.filter(session=session).update(dining="take_away")
    return session


@pytest.fixture
def pay(agent_client, processor, billing, kiosk_events, django_capture_on_commit_callbacks):
    """Pay a session's order through the real flow; what it queues on commit runs at once."""

    def send_to_payment(session) -> None:
        assert agent_client.post(f"/api/sessions/{session.public_id}/payment").status_code == 200

    def succeed(session) -> Order:
        with django_capture_on_commit_callbacks(execute=True):
            post_event(Client(), intent_event("payment_intent.succeeded", Payment.objects.get(order__session=session)))
        return Order.objects.get(session=session)

    def pay(session) -> Order:
        send_to_payment(session)
        return succeed(session)

    pay.send_to_payment = send_to_payment
    pay.succeed = succeed
    return pay


KITCHEN = PrinterRole.KITCHEN
