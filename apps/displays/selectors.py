"""What the screens show: the business's open tickets (oldest paid first) and the board's
numbers. Both are bounded (DISPLAY_TICKETS_LIMIT): a screen shows what fits, not a history."""

from datetime import timedelta

from django.conf import settings
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from apps.displays.models import DisplayToken, hash_display_secret
from apps.orders.models import Order, OrderStatus

KITCHEN_STATUSES = (OrderStatus.CONFIRMED, OrderStatus.PREPARING, OrderStatus.READY)


def _open_orders(business_id: int) -> QuerySet[Order]:
    return Order.objects.filter(business_id=business_id).order_by(F("paid_at").asc(nulls_first=True), "pk")


def kitchen_tickets(business_id: int) -> tuple[list[Order], bool]:
    """(the open tickets, whether more were left off)."""
    limit = settings.DISPLAY_TICKETS_LIMIT
    found = list(_open_orders(business_id).filter(status__in=KITCHEN_STATUSES).prefetch_related("lines")[: limit + 1])
    return found[:limit], len(found) > limit


def board_orders(business_id: int, ready_seconds: int) -> tuple[list[Order], bool]:
    """Preparing (confirmed or preparing) and ready, a ready one only `ready_seconds` after it
    became ready (its last change)."""
    limit = settings.DISPLAY_TICKETS_LIMIT
    since = timezone.now() - timedelta(seconds=ready_seconds)
    shown = Q(status__in=(OrderStatus.CONFIRMED, OrderStatus.PREPARING)) | Q(
        status=OrderStatus.READY, updated_at__gte=since
    )
    found = list(_open_orders(business_id).filter(shown)[: limit + 1])
    return found[:limit], len(found) > limit


def live_token(raw: str) -> DisplayToken | None:
    """The unrevoked token with this secret, with its business, or None."""
    if not raw or len(raw) > 200:
        return None
    return (
        DisplayToken.objects.select_related("business", "owner")
        .filter(token_hash=hash_display_secret(raw), revoked_at__isnull=True)
        .first()
    )


def owner_tokens(owner_id: int) -> QuerySet[DisplayToken]:
    return DisplayToken.objects.filter(owner_id=owner_id).select_related("business").order_by("-created_at")
