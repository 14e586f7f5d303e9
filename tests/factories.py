"""factory_boy factories: one per model, each building a valid object of its tenant."""

import secrets
import uuid
from datetime import timedelta

import factory
from django.utils import timezone

from apps.accounts.models import AgentStatus, Business, Owner, PanelRole, User
from apps.kiosks.models import Kiosk, hash_device_token
from apps.sessions.models import Session

PASSWORD = "correct-horse-battery"


class OwnerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Owner

    name = factory.Sequence(lambda n: f"Owner {n}")


class BusinessFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Business

    owner = factory.SubFactory(OwnerFactory)
    name = factory.Sequence(lambda n: f"Business {n}")
    currency = "USD"
    tax_rate_bps = 875


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"user{n}@example.test")
    name = factory.Sequence(lambda n: f"User {n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @classmethod
    def _after_postgeneration(cls, instance, create, results=None):
        if create:
            instance.save()


class AgentFactory(UserFactory):
    owner = factory.SubFactory(OwnerFactory)
    is_agent = True
    agent_status = AgentStatus.AVAILABLE


class PanelUserFactory(UserFactory):
    owner = factory.SubFactory(OwnerFactory)
    panel_role = PanelRole.OWNER


class KioskFactory(factory.django.DjangoModelFactory):
    """A paired kiosk; its plaintext device token is on `kiosk.raw_token`."""

    class Meta:
        model = Kiosk

    business = factory.SubFactory(BusinessFactory)
    name = factory.Sequence(lambda n: f"Kiosk {n}")
    location = "Front door"
    device_id = factory.LazyFunction(uuid.uuid4)
    raw_token = factory.LazyFunction(lambda: secrets.token_urlsafe(32))
    token_hash = factory.LazyAttribute(lambda o: hash_device_token(o.raw_token))
    paired_at = factory.LazyFunction(timezone.now)
    last_seen_at = factory.LazyFunction(timezone.now)
    online = True

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        raw_token = kwargs.pop("raw_token", None)
        kiosk = super()._create(model_class, *args, **kwargs)
        kiosk.raw_token = raw_token
        return kiosk


class SessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Session

    kiosk = factory.SubFactory(KioskFactory)
    business = factory.SelfAttribute("kiosk.business")
    owner = factory.SelfAttribute("kiosk.business.owner")
    customer_locale = "en-US"


class CatalogFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "menu.Catalog"

    business = factory.SubFactory(BusinessFactory)
    name = "Main menu"
    is_active = True


class CategoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "menu.Category"

    catalog = factory.SubFactory(CatalogFactory)
    name = factory.Sequence(lambda n: f"Category {n}")
    sort_order = factory.Sequence(int)


class MenuItemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "menu.MenuItem"

    category = factory.SubFactory(CategoryFactory)
    name = factory.Sequence(lambda n: f"Item {n}")
    description = "Tasty."
    price_cents = 1000


class ModifierGroupFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "menu.ModifierGroup"

    item = factory.SubFactory(MenuItemFactory)
    name = factory.Sequence(lambda n: f"Group {n}")
    required = False
    min = 0
    max = 1


class ModifierOptionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "menu.ModifierOption"

    group = factory.SubFactory(ModifierGroupFactory)
    name = factory.Sequence(lambda n: f"Option {n}")
    price_cents = 0


# --- Orders, payments and the processor --------------------------------------------------------


class OrderFactory(factory.django.DjangoModelFactory):
    """An order of its session's tenant; `number` is unique per business."""

    class Meta:
        model = "orders.Order"

    session = factory.SubFactory(SessionFactory)
    owner = factory.SelfAttribute("session.owner")
    business = factory.SelfAttribute("session.business")
    number = factory.Sequence(lambda n: str(1000 + n))
    status = "confirmed"
    currency = factory.LazyAttribute(lambda order: order.business.currency)


class OrderLineFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "orders.OrderLine"

    order = factory.SubFactory(OrderFactory)
    position = factory.Sequence(lambda n: n)
    name = factory.Sequence(lambda n: f"Item {n}")
    quantity = 1
    unit_price_cents = 1000


class OwnerBillingFactory(factory.django.DjangoModelFactory):
    """A connected account that may take charges and pay out."""

    class Meta:
        model = "billing.OwnerBilling"

    owner = factory.SubFactory(OwnerFactory)
    account_id = factory.Sequence(lambda n: f"acct_test{n}")
    charges_enabled = True
    payouts_enabled = True


class PaymentFactory(factory.django.DjangoModelFactory):
    """A payment intent for the whole order, waiting for the card."""

    class Meta:
        model = "billing.Payment"

    order = factory.SubFactory(OrderFactory)
    account_id = factory.Sequence(lambda n: f"acct_test{n}")
    intent_id = factory.LazyFunction(lambda: "pi_" + secrets.token_hex(8))
    client_secret = factory.LazyAttribute(lambda payment: f"{payment.intent_id}_secret_{secrets.token_hex(4)}")
    amount_cents = factory.LazyAttribute(lambda payment: payment.order.total_cents)
    currency = factory.LazyAttribute(lambda payment: payment.order.currency)
    status = "requires_payment_method"


class ProcessorCallFactory(factory.django.DjangoModelFactory):
    """A processor call in flight for the order, expiring in a minute."""

    class Meta:
        model = "billing.ProcessorCall"

    order = factory.SubFactory(OrderFactory)
    action = "payment"
    idempotency_key = factory.LazyFunction(lambda: secrets.token_hex(8))
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(minutes=1))


class ProcessorEventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "billing.ProcessorEvent"

    event_id = factory.LazyFunction(lambda: "evt_" + secrets.token_hex(8))
    type = "payment_intent.succeeded"
    endpoint = "connect"
    created = factory.LazyFunction(timezone.now)


# --- Webhooks --------------------------------------------------------------------------------


class WebhookSubscriptionFactory(factory.django.DjangoModelFactory):
    """An active subscription with an encrypted signing secret (`secret` is the plaintext)."""

    class Meta:
        model = "webhooks.WebhookSubscription"
        exclude = ["secret"]

    owner = factory.SubFactory(OwnerFactory)
    url = "https://93.184.216.34/hooks"
    events = factory.LazyFunction(lambda: ["kiosk.offline"])
    secret = factory.LazyFunction(lambda: "whsec_" + secrets.token_hex(16))
    encrypted_secret = factory.LazyAttribute(lambda subscription: _encrypt(subscription.secret))


def _encrypt(secret: str) -> str:
    from apps.webhooks import secret_box

    return secret_box.encrypt(secret)


class DomainEventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "core.DomainEvent"

    name = "kiosk.offline"
    owner = factory.SubFactory(OwnerFactory)
    payload = factory.LazyFunction(dict)


class WebhookDeliveryFactory(factory.django.DjangoModelFactory):
    """A pending delivery of an event of the subscription's owner."""

    class Meta:
        model = "webhooks.WebhookDelivery"

    subscription = factory.SubFactory(WebhookSubscriptionFactory)
    event = factory.SubFactory(DomainEventFactory, owner=factory.SelfAttribute("..subscription.owner"))


class WebhookAttemptFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "webhooks.WebhookAttempt"

    delivery = factory.SubFactory(WebhookDeliveryFactory)
    succeeded = False
    status_code = 500
    duration_ms = 10
