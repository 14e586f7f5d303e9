from apps.orders.models import Order
from apps.sessions.models import Session


def order_for_session(session: Session) -> Order | None:
    return Order.objects.filter(session=session).prefetch_related("lines").first()
