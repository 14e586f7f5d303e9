from django.db.models import QuerySet

from apps.orders.models import Order, OrderSettings
from apps.sessions.models import Session


def order_for_session(session: Session) -> Order | None:
    return Order.objects.filter(session=session).prefetch_related("lines").first()


def orders_of_owner(owner_id: int) -> QuerySet[Order]:
    """Every order of the owner, with its business and its session's kiosk."""
    return Order.objects.filter(owner_id=owner_id).select_related("business", "session__kiosk")


def order_settings_of(business_id: int) -> OrderSettings:
    """The business's order settings (the defaults when the owner never saved any)."""
    return OrderSettings.objects.filter(business_id=business_id).first() or OrderSettings(business_id=business_id)


def asks_dining(business_id: int) -> bool:
    """Whether the kiosk asks eat in or take away (yes unless the owner turned it off)."""
    return order_settings_of(business_id).ask_dining
