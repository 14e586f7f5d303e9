"""State changes for orders. The cart is replaced whole on each POST (spec 4.2 rule 4)."""

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from apps.accounts.models import Business, User
from apps.core import events
from apps.core.actor import API_KEY, ORDERS_WRITE, Actor, may_act_for
from apps.core.errors import DomainError, ErrorCode, require_choice
from apps.kiosks.models import Kiosk
from apps.orders import cart, fulfilment
from apps.orders.domain_events import CartReplaced
from apps.orders.models import Dining, Order, OrderLine, OrderSettings, OrderStatus
from apps.orders.totals import order_totals
from apps.sessions import selectors as session_selectors
from apps.sessions.models import ENDED_STATUSES, Session, SessionStatus


def _next_order_number(business_id: int) -> str:
    """Short, increasing, unique per business. The UPDATE locks the business row until commit,
    so two new orders of one business never share a number."""
    Business.objects.filter(pk=business_id).update(order_sequence=F("order_sequence") + 1)
    return str(Business.objects.values_list("order_sequence", flat=True).get(pk=business_id))


def _ensure_cart_editable(session: Session, agent: User) -> None:
    if session.agent_id != agent.pk:
        raise DomainError(ErrorCode.SESSION_NOT_OWNED, "Only the agent who accepted this session can edit its cart.")
    if session.status == SessionStatus.PAYMENT:
        raise DomainError(ErrorCode.ORDER_LOCKED, "The cart is locked while the customer pays.")
    if session.status in ENDED_STATUSES:
        raise DomainError(ErrorCode.SESSION_ALREADY_ENDED, "This session has ended; its cart is closed.")


def cart_replace(*, agent: User, session_public_id: str, lines: list[cart.CartLineIn]) -> tuple[Session, Order]:
    """Replace the session's whole cart. The session row lock serialises concurrent posts, so
    one cart never mixes lines of two requests."""
    with transaction.atomic():
        session = session_selectors.session_visible_to_agent(agent=agent, public_id=session_public_id, lock=True)
        _ensure_cart_editable(session, agent)
        return session, _replace_locked(session, lines)


def _ensure_self_service(session: Session) -> None:
    """The customer builds the cart alone only while no agent holds the session."""
    if session.status in ENDED_STATUSES:
        raise DomainError(ErrorCode.SESSION_ALREADY_ENDED, "This session has ended; its cart is closed.")
    if session.agent_id is not None:
        raise DomainError(
            ErrorCode.SESSION_ALREADY_ACCEPTED,
            "An agent has joined this session: the agent builds the order from now on.",
        )
    if session.status == SessionStatus.PAYMENT:
        raise DomainError(ErrorCode.ORDER_LOCKED, "The cart is locked while the customer pays.")


def cart_replace_by_kiosk(
    *, kiosk: Kiosk, session_public_id: str, lines: list[cart.CartLineIn]
) -> tuple[Session, Order]:
    """Self-service: the customer nobody has answered yet replaces the whole cart of the kiosk's
    own waiting session, with the agent's rules, totals and OrderUpdated. Once an agent has
    accepted, the cart is the agent's (409 SESSION_ALREADY_ACCEPTED)."""
    with transaction.atomic():
        session = session_selectors.session_for_kiosk(kiosk=kiosk, public_id=session_public_id, lock=True)
        _ensure_self_service(session)
        return session, _replace_locked(session, lines)


def _replace_locked(session: Session, lines: list[cart.CartLineIn]) -> Order:
    """The cart replace itself; the caller holds the transaction and the session row lock."""
    business = Business.objects.get(pk=session.business_id)
    priced = cart.price_cart(business_id=business.pk, lines=lines)
    order = Order.objects.filter(session=session).first()
    if order is None:
        order = Order(
            session=session,
            owner_id=session.owner_id,
            business=business,
            currency=business.currency,
            number=_next_order_number(business.pk),
        )
    totals = order_totals([line.total_cents for line in priced], business.tax_rate_bps)
    order.subtotal_cents, order.tax_cents, order.total_cents = (
        totals.subtotal_cents,
        totals.tax_cents,
        totals.total_cents,
    )
    order.status = OrderStatus.DRAFT
    order.updated_at = timezone.now()
    order.save()
    order.lines.all().delete()
    OrderLine.objects.bulk_create(
        OrderLine(
            order=order,
            position=position,
            menu_item=line.item,
            name=line.item.name,
            quantity=line.quantity,
            unit_price_cents=line.unit_price_cents,
            modifiers=[{"group": o.group.name, "value": o.name, "option_id": o.pk} for o in line.options],
            notes=line.notes,
        )
        for position, line in enumerate(priced)
    )
    session.business = business
    order = Order.objects.prefetch_related("lines").get(pk=order.pk)
    events.emit(CartReplaced(order=order, session=session))  # the kiosk shows the cart as it is built
    return order


def order_set_fulfilment_status(*, order_id: int, actor: Actor, status: str) -> Order:
    """Owners and managers move a fired order through preparing, ready and completed; so does
    an owner API key with the `orders:write` scope, acting for its owner."""
    if ORDERS_WRITE not in actor.scopes:
        if actor.who == API_KEY:
            raise DomainError(ErrorCode.FORBIDDEN, "This API key may not move orders.")
        raise DomainError(ErrorCode.FORBIDDEN, "Orders are moved by owners and managers.")
    require_choice(
        status, fulfilment.FULFILMENT_STATUSES, field="status", message=gettext_noop("Unknown fulfilment status.")
    )
    with transaction.atomic():
        order = Order.objects.select_for_update().filter(pk=order_id).first()
        if order is None or not may_act_for(actor, order.owner_id, ORDERS_WRITE):
            raise DomainError(ErrorCode.NOT_FOUND, "No such order.")
        fulfilment.move(order, status)
    return order


DINING_OPEN = (OrderStatus.DRAFT, OrderStatus.AWAITING_PAYMENT, OrderStatus.FAILED)


def order_set_dining(*, session: Session, dining: str) -> Order:
    """The customer's eat in or take away, before paying (the order exists, not paid yet)."""
    require_choice(dining, Dining.values, field="dining", message=gettext_noop("Choose eat in or take away."))
    with transaction.atomic():
        order = Order.objects.select_for_update().filter(session=session).first()
        if order is None:
            raise DomainError(ErrorCode.ORDER_EMPTY, "There is no order yet: the agent has not built a cart.")
        if order.status not in DINING_OPEN:
            raise DomainError(ErrorCode.ORDER_LOCKED, "The order is paid: eat in or take away can no longer change.")
        order.dining = dining
        order.updated_at = timezone.now()
        order.save(update_fields=["dining", "updated_at"])
    return order


def order_settings_update(
    *, business: Business, ask_dining: bool, keep_receipt_email: bool, card_fields_fallback: bool | None = None
) -> OrderSettings:
    """The business's order settings; `card_fields_fallback` None keeps it as it is."""
    defaults: dict[str, bool] = {"ask_dining": ask_dining, "keep_receipt_email": keep_receipt_email}
    if card_fields_fallback is not None:
        defaults["card_fields_fallback"] = card_fields_fallback
    settings, _ = OrderSettings.objects.update_or_create(business=business, defaults=defaults)
    return settings
