"""Orders: filterable list, detail with lines and payment state, fulfilment moves, refunds."""

from datetime import date, datetime, time
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.accounts.actors import user_actor
from apps.billing import selectors as billing_selectors
from apps.billing.services import refunds
from apps.core.errors import DomainError
from apps.orders import fulfilment
from apps.orders import selectors as order_selectors
from apps.orders import services as order_services
from apps.orders.models import Order, OrderStatus
from apps.panel.access import ANY_ROLE, PanelRequest, owned_or_404, panel_page
from apps.panel.forms import FulfilmentForm, OrderFilterForm, RefundForm
from apps.panel.pages import form_action, render_page, report_error
from apps.printing import selectors as printing_selectors

PAGE_SIZE = 25
MOVE_INVALID = gettext_lazy("Choose preparing, ready or completed.")


def _orders(request: PanelRequest) -> QuerySet[Order]:
    return order_selectors.orders_of_owner(request.user.owner_id)


def _order(request: PanelRequest, order_id: int) -> Order:
    return owned_or_404(_orders(request), request, pk=order_id)


def day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def day_end(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.max))


def _abandoned(orders: QuerySet[Order]) -> QuerySet[Order]:
    """Drafts whose session ended: carts never sent to payment."""
    return orders.filter(status=OrderStatus.DRAFT, session__ended_at__isnull=False)


def _filtered(orders: QuerySet[Order], data: dict[str, Any]) -> QuerySet[Order]:
    status = data.get("status") or ""
    if status == OrderFilterForm.ABANDONED:
        orders = _abandoned(orders)
    elif status and status != OrderFilterForm.ALL:
        orders = orders.filter(status=status)
    if data.get("number"):
        orders = orders.filter(number=data["number"].strip())
    if data.get("date_from"):
        orders = orders.filter(created_at__gte=day_start(data["date_from"]))
    if data.get("date_to"):
        orders = orders.filter(created_at__lte=day_end(data["date_to"]))
    return orders


@panel_page(ANY_ROLE)
def order_list(request: PanelRequest) -> HttpResponse:
    """Orders sent to payment or later by default; drafts (in a live session or abandoned) on
    request. Numbers are issued when an agent first saves a cart, so the default list's gaps are
    drafts: the page says how many there are and links to them."""
    form = OrderFilterForm(request.GET or None)
    data = form.cleaned_data if form.is_valid() else {}
    orders = _orders(request).order_by("-created_at", "-pk")
    if not data.get("status"):
        hidden_drafts = _filtered(orders.filter(status=OrderStatus.DRAFT), {**data, "status": OrderStatus.DRAFT})
        drafts = {"total": hidden_drafts.count(), "abandoned": _abandoned(hidden_drafts).count()}
        orders = orders.exclude(status=OrderStatus.DRAFT)
    else:
        drafts = None
    orders = _filtered(orders, data)
    page = Paginator(orders, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {"form": form, "page": page, "query": query.urlencode(), "drafts": drafts}
    return render_page(request, "panel/orders.html", context, section="orders")


@panel_page(ANY_ROLE)
def order_detail(request: PanelRequest, order_id: int) -> HttpResponse:
    order = owned_or_404(_orders(request).prefetch_related("lines"), request, pk=order_id)
    context = {
        "order": order,
        "payments": billing_selectors.payments_of_order(order),
        "refunds": billing_selectors.refunds_of_order(order),
        "refunded_cents": billing_selectors.refunded_cents(order),
        "next_statuses": [s for s in fulfilment.FULFILMENT_STATUSES if s in fulfilment.TRANSITIONS[order.status]],
        "refundable": order.status in refunds.REFUNDABLE,
        "tickets": printing_selectors.jobs_of_order(owner_id=request.user.owner_id, order_id=order.pk),
    }
    return render_page(request, "panel/order_detail.html", context, section="orders")


@form_action(
    _order,
    lambda order: redirect("panel:order", order_id=order.pk),
    FulfilmentForm,
    access=ANY_ROLE,
    id_name="order_id",
    invalid=MOVE_INVALID,
)
def order_move(request: PanelRequest, order: Order, data: dict[str, Any]) -> str:
    order_services.order_set_fulfilment_status(order_id=order.pk, actor=user_actor(request.user), status=data["status"])
    return _("Order {number} is {status}.").format(number=order.number, status=data["status"])


@panel_page(ANY_ROLE)
def order_refund(request: PanelRequest, order_id: int) -> HttpResponseBase:
    """GET asks for confirmation; POST refunds through the processor."""
    order = _order(request, order_id)
    form = RefundForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            refund = refunds.refund_order(
                order_id=order.pk,
                actor=user_actor(request.user),
                amount_cents=form.amount_cents(),
                reason=form.cleaned_data["reason"],
            )
        except DomainError as exc:
            report_error(request, exc)
        else:
            amount = f"{refund.amount_cents / 100:.2f} {order.currency}"
            messages.success(
                request, _("Refunded {amount} on order {number}.").format(amount=amount, number=order.number)
            )
            return redirect("panel:order", order_id=order.pk)
    refunded = billing_selectors.refunded_cents(order)
    context = {"order": order, "form": form, "remaining_cents": order.total_cents - refunded}
    return render_page(request, "panel/order_refund.html", context, section="orders")
