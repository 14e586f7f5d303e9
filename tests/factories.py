"""factory_boy factories: one per model, each building a valid object of its tenant."""

import secrets
import uuid
from datetime import timedelta

import factory
from django.utils import timezone

from apps.accounts.models import AgentStatus, Business, Owner, PanelRole, User, hash_token_secret
from apps.kiosks.models import Kiosk, hash_device_token, hash_pairing_code
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
    """An available agent, signed in now (its dashboard seen: the router offers it sessions for
    AGENT_SIGNED_IN_SECONDS); pass last_seen_at=None or an old time for one that is not."""

    owner = factory.SubFactory(OwnerFactory)
    is_agent = True
    agent_status = AgentStatus.AVAILABLE
    last_seen_at = factory.LazyFunction(timezone.now)


class PanelUserFactory(UserFactory):
    owner = factory.SubFactory(OwnerFactory)
    panel_role = PanelRole.OWNER


class LoginChallengeFactory(factory.django.DjangoModelFactory):
    """A pending second factor, valid 5 minutes."""

    class Meta:
        model = "accounts.LoginChallenge"

    public_id = factory.LazyFunction(lambda: secrets.token_urlsafe(24))
    user = factory.SubFactory(AgentFactory)
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(minutes=5))


class PersonalAccessTokenFactory(factory.django.DjangoModelFactory):
    """A live token of the token API; its plaintext `{id}|{secret}` is on `token.plaintext`."""

    class Meta:
        model = "accounts.PersonalAccessToken"

    user = factory.SubFactory(AgentFactory)
    secret = factory.LazyFunction(lambda: secrets.token_urlsafe(30)[:40])
    token_hash = factory.LazyAttribute(lambda o: hash_token_secret(o.secret))

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        secret = kwargs.pop("secret")
        token = super()._create(model_class, *args, **kwargs)
        token.plaintext = f"{token.pk}|{secret}"
        return token


class TOTPDeviceFactory(factory.django.DjangoModelFactory):
    """A confirmed authenticator app (django-otp) of a user: their second factor."""

    class Meta:
        model = "accounts.SealedTotpDevice"

    user = factory.SubFactory(AgentFactory)
    name = "phone"
    confirmed = True


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


class PairingCodeFactory(factory.django.DjangoModelFactory):
    """An unused pairing code, valid 15 minutes; its plaintext 6 digits are on `pairing_code.code`."""

    class Meta:
        model = "kiosks.PairingCode"

    business = factory.SubFactory(BusinessFactory)
    code = factory.LazyFunction(lambda: f"{secrets.randbelow(10**6):06d}")
    code_hash = factory.LazyAttribute(lambda o: hash_pairing_code(o.code))
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(minutes=15))

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        code = kwargs.pop("code")
        pairing_code = super()._create(model_class, *args, **kwargs)
        pairing_code.code = code
        return pairing_code


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


class RefundFactory(factory.django.DjangoModelFactory):
    """A refund of part of a succeeded payment."""

    class Meta:
        model = "billing.Refund"

    payment = factory.SubFactory(PaymentFactory, status="succeeded")
    order = factory.SelfAttribute("payment.order")
    refund_id = factory.LazyFunction(lambda: "re_" + secrets.token_hex(8))
    amount_cents = 500


class PlatformFeeFactory(factory.django.DjangoModelFactory):
    """An application fee recorded for audit (zero: the service takes none)."""

    class Meta:
        model = "billing.PlatformFee"

    fee_id = factory.LazyFunction(lambda: "fee_" + secrets.token_hex(8))
    account_id = factory.Sequence(lambda n: f"acct_test{n}")
    amount_cents = 0
    currency = "usd"


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


# --- The demo processor's own records ---------------------------------------------------------


class DemoAccountFactory(factory.django.DjangoModelFactory):
    """A connected account at the demo processor, onboarded (charges enabled)."""

    class Meta:
        model = "demo_processor.DemoAccount"

    account_id = factory.Sequence(lambda n: f"acct_demo{n}")
    charges_enabled = True


class DemoPaymentIntentFactory(factory.django.DjangoModelFactory):
    """A payment intent at the demo processor, waiting for the card."""

    class Meta:
        model = "demo_processor.DemoPaymentIntent"

    intent_id = factory.LazyFunction(lambda: "pi_" + secrets.token_hex(8))
    account_id = factory.Sequence(lambda n: f"acct_demo{n}")
    client_secret = factory.LazyAttribute(lambda intent: f"{intent.intent_id}_secret_{secrets.token_hex(4)}")
    amount = 2175
    currency = "usd"
    status = "requires_payment_method"


class DemoRefundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "demo_processor.DemoRefund"

    refund_id = factory.LazyFunction(lambda: "re_" + secrets.token_hex(8))
    intent = factory.SubFactory(DemoPaymentIntentFactory, status="succeeded")
    amount = 500


class DemoIdempotentAnswerFactory(factory.django.DjangoModelFactory):
    """The demo processor's first answer to an Idempotency-Key, replayed to its retries."""

    class Meta:
        model = "demo_processor.DemoIdempotentAnswer"

    account_id = factory.Sequence(lambda n: f"acct_demo{n}")
    key = factory.LazyFunction(lambda: secrets.token_hex(8))
    path = "/v1/payment_intents"
    status = 200
    body = factory.LazyFunction(lambda: {"id": "pi_" + secrets.token_hex(8), "object": "payment_intent"})


# --- Owner API keys and recordings -----------------------------------------------------------


class OAuthApplicationFactory(factory.django.DjangoModelFactory):
    """The OAuth client behind an owner API key, as owner_api_key_create makes it: confidential,
    client-credentials grant, its secret stored hashed; the plaintext is on `application.secret`."""

    class Meta:
        model = "oauth2_provider.Application"

    name = factory.Sequence(lambda n: f"owner key {n}")
    client_type = "confidential"
    authorization_grant_type = "client-credentials"
    hash_client_secret = True
    client_secret = factory.LazyFunction(lambda: secrets.token_urlsafe(48))

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        secret = kwargs["client_secret"]
        application = super()._create(model_class, *args, **kwargs)  # DOT hashes the secret on save
        application.secret = secret
        return application


class OwnerApiKeyFactory(factory.django.DjangoModelFactory):
    """A live owner API key holding every scope; its client secret is on `key.secret`."""

    class Meta:
        model = "owner_api.OwnerApiKey"

    owner = factory.SubFactory(OwnerFactory)
    application = factory.SubFactory(OAuthApplicationFactory)
    name = factory.Sequence(lambda n: f"integration {n}")
    scopes = factory.LazyFunction(lambda: " ".join(_all_scopes()))

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        key = super()._create(model_class, *args, **kwargs)
        key.secret = key.application.secret
        return key


def _all_scopes() -> list[str]:
    from apps.owner_api.scopes import ALL_SCOPES

    return list(ALL_SCOPES)


class SessionRecordingFactory(factory.django.DjangoModelFactory):
    """The recording of a session's call, started now, its files not yet purged."""

    class Meta:
        model = "video.SessionRecording"

    session = factory.SubFactory(SessionFactory)
    storage_prefix = factory.LazyAttribute(lambda recording: f"recordings/{recording.session.public_id}/")


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
    from apps.core import secret_box

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


class WebhookFailureAllowanceFactory(factory.django.DjangoModelFactory):
    """A batch's allowance of consecutive failures, live for a minute."""

    class Meta:
        model = "webhooks.WebhookFailureAllowance"

    subscription = factory.SubFactory(WebhookSubscriptionFactory)
    failures = 1
    until = factory.LazyFunction(lambda: timezone.now() + timedelta(minutes=1))
