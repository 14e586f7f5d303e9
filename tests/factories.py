"""factory_boy factories: one per model, each building a valid object of its tenant."""

import secrets
import uuid

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
