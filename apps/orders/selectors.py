from django.db.models import QuerySet

from apps.orders.models import Order
from apps.sessions.models import Session


def order_for_session(session: Session) -> Order | None:
    return Order.objects.filter(session=session).prefetch_related("lines").first()


def orders_of_owner(owner_id: int) -> QuerySet[Order]:
    """Every order of the owner, with its business and its session's kiosk."""
    return Order.objects.filter(owner_id=owner_id).select_related("business", "session__kiosk")
