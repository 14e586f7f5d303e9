"""One object of every kind the panel edits, for one tenant: what the permission tests aim at."""

from dataclasses import dataclass

from apps.owner_api import services as key_services
from apps.printing.models import Printer, PrintJob
from tests import factories


@dataclass
class TenantObjects:
    kiosk: object
    agent: object
    catalog: object
    category: object
    item: object
    group: object
    option: object
    order: object
    subscription: object
    delivery: object
    api_key: object
    printer: object
    ticket: object

    def ids(self) -> dict:
        return {
            "kiosk_id": self.kiosk.pk,
            "agent_id": self.agent.pk,
            "catalog_id": self.catalog.pk,
            "category_id": self.category.pk,
            "item_id": self.item.pk,
            "group_id": self.group.pk,
            "option_id": self.option.pk,
            "order_id": self.order.pk,
            "subscription_id": self.subscription.pk,
            "delivery_id": self.delivery.pk,
            "key_id": self.api_key.pk,
            "printer_id": self.printer.pk,
            "job_id": self.ticket.pk,
        }


def tenant_objects(business) -> TenantObjects:
    kiosk = factories.KioskFactory(business=business)
    catalog = factories.CatalogFactory(business=business)
    category = factories.CategoryFactory(catalog=catalog)
    item = factories.MenuItemFactory(category=category)
    group = factories.ModifierGroupFactory(item=item)
    option = factories.ModifierOptionFactory(group=group)
    session = factories.SessionFactory(kiosk=kiosk)
    order = factories.OrderFactory(session=session, number="1", currency="USD", status="confirmed", total_cents=1000)
    subscription = factories.WebhookSubscriptionFactory(
        owner=business.owner, url="http://127.0.0.1:9/hooks", events=["order.created"], secret="a" * 64
    )
    event = factories.DomainEventFactory(name="webhook.test", owner=business.owner, payload={})
    delivery = factories.WebhookDeliveryFactory(subscription=subscription, event=event, status="succeeded")
    api_key, _ = key_services.owner_api_key_create(
        owner=business.owner, name="Till integration", scopes=["orders:read"], created_by=None
    )
    printer = Printer.objects.create(business=business, name="Grill", host="127.0.0.1", port=9)
    return TenantObjects(
        kiosk=kiosk,
        agent=factories.AgentFactory(owner=business.owner),
        catalog=catalog,
        category=category,
        item=item,
        group=group,
        option=option,
        order=order,
        subscription=subscription,
        delivery=delivery,
        api_key=api_key,
        printer=printer,
        ticket=PrintJob.objects.create(
            printer=printer, order=order, kind="kitchen", key=f"kitchen:{order.pk}", content=b""
        ),
    )
