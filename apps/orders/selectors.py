from django.db.models import QuerySet

from apps.orders.models import Order, OrderSettings
from apps.sessions.models import Session


def order_for_session(session: Session) -> Order | None:
    return Order.objects.filter(session=session).prefetch_related("lines").first()


def orders_of_owner(owner_id: int) -> QuerySet[Order]:
    """Every order of the owner, with its business and its session's kiosk."""
    return Order.objects.filter(owner_id=owner_id).select_related("business", "session__kiosk")


def asks_dining(business_id: int) -> bool:
    """Whether the kiosk asks eat in or take away (yes unless the owner turned it off)."""
    answer = OrderSettings.objects.filter(business_id=business_id).values_list("ask_dining", flat=True).first()
    return True if answer is None else answer
