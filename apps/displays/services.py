"""Display tokens (create, revoke, sign a screen in) and the kitchen's one action: moving a
ticket through fulfilment, by the orders service, so `order.status_changed` goes out as from
the panel. A screen is a `Viewer`: one business, and what it may open."""

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.accounts.actors import display_member
from apps.accounts.models import Business, User
from apps.core.actor import DISPLAY, ORDERS_WRITE, PANEL_USER, Actor
from apps.core.errors import DomainError, ErrorCode
from apps.displays import selectors
from apps.displays.models import DisplayKind, DisplayToken, hash_display_secret
from apps.orders import services as order_services
from apps.orders.models import Order
from apps.printing import services as printing_services

LAST_USED_EVERY = timedelta(minutes=1)  # a screen polls every few seconds: write its use now and then


@dataclass(frozen=True)
class Viewer:
    owner_id: int
    business: Business
    kinds: frozenset[str]  # which screens: a token opens its own, a signed-in user both
    ready_seconds: int
    actor: Actor

    def ensure(self, kind: str) -> None:
        if kind not in self.kinds:
            raise DomainError(
                ErrorCode.FORBIDDEN, "This display may not open the {kind} screen.", params={"kind": kind}
            )


def viewer_for_token(raw: str) -> Viewer | None:
    token = selectors.live_token(raw)
    if token is None or token.owner.suspended:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_EVERY:
        DisplayToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return Viewer(
        owner_id=token.owner_id,
        business=token.business,
        kinds=frozenset({token.kind}),
        ready_seconds=token.ready_seconds,
        actor=Actor(owner_id=token.owner_id, who=DISPLAY, scopes=frozenset({ORDERS_WRITE})),
    )


def viewer_for_user(user: User, business_id: str | None) -> Viewer:
    """A signed-in owner, manager or kitchen user, on one of its owner's businesses (the first
    when none is named); another owner's business is a 404."""
    owner_id = user.owner_id
    if owner_id is None or not display_member(user):
        raise DomainError(ErrorCode.FORBIDDEN, "Only the owner's panel and kitchen users open the displays.")
    businesses = Business.objects.filter(owner_id=owner_id).order_by("pk")
    if business_id:
        if not business_id.isdigit():
            raise DomainError(ErrorCode.NOT_FOUND, "No such business.")
        businesses = businesses.filter(pk=int(business_id))
    business = businesses.first()
    if business is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such business.")
    return Viewer(
        owner_id=owner_id,
        business=business,
        kinds=frozenset(DisplayKind.values),
        ready_seconds=settings.BOARD_READY_SECONDS,
        actor=Actor(owner_id=owner_id, who=PANEL_USER, scopes=frozenset({ORDERS_WRITE}), user_id=user.pk),
    )


def display_token_create(
    *, business: Business, kind: str, name: str, ready_seconds: int, created_by: User | None
) -> tuple[DisplayToken, str]:
    """A new token and its secret (shown once; only its hash is kept)."""
    if kind not in DisplayKind.values:
        raise DomainError(ErrorCode.VALIDATION_ERROR, "Unknown display kind.", details={"kind": ["kitchen or board"]})
    raw = secrets.token_urlsafe(32)
    token = DisplayToken.objects.create(
        owner_id=business.owner_id,
        business=business,
        kind=kind,
        name=name.strip()[:100] or kind.title(),
        ready_seconds=ready_seconds,
        token_hash=hash_display_secret(raw),
        created_by=created_by,
    )
    return token, raw


def display_token_revoke(*, owner_id: int, token_id: int) -> DisplayToken:
    with transaction.atomic():
        token = DisplayToken.objects.select_for_update().filter(pk=token_id, owner_id=owner_id).first()
        if token is None:
            raise DomainError(ErrorCode.NOT_FOUND, "No such display.")
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
    return token


def ticket_move(*, viewer: Viewer, order_id: str, status: str) -> Order:
    """preparing, ready or completed; an order of another business is not found (404)."""
    viewer.ensure(DisplayKind.KITCHEN)
    if not order_id.isdigit() or not Order.objects.filter(pk=int(order_id), business=viewer.business).exists():
        raise DomainError(ErrorCode.NOT_FOUND, "No such order.")
    order = order_services.order_set_fulfilment_status(order_id=int(order_id), actor=viewer.actor, status=status)
    return Order.objects.prefetch_related("lines").get(pk=order.pk)


def ticket_reprint(*, viewer: Viewer, order_id: str) -> int:
    """The order's kitchen tickets printed again, marked REPRINT; how many. An order of another
    business is not found (404); one no printer printed is 409 INVALID_STATE."""
    viewer.ensure(DisplayKind.KITCHEN)
    order = Order.objects.filter(pk=int(order_id), business=viewer.business).first() if order_id.isdigit() else None
    if order is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such order.")
    with transaction.atomic():
        again = printing_services.reprint_kitchen_tickets(order)
    if not again:
        raise DomainError(ErrorCode.INVALID_STATE, "No printer has printed this order's ticket yet.")
    return len(again)
