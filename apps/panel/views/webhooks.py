"""Webhooks (owner only): create (secret shown once), test, re-enable, delivery log, resend, delete."""

from typing import Any

from django.contrib import messages
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.core.errors import DomainError
from apps.panel.access import OWNER_ONLY, PanelRequest, owned_or_404, panel_page
from apps.panel.forms import WebhookCreateForm
from apps.panel.pages import form_posted, object_action, put_once, render_page, report_error, take_once
from apps.webhooks import selectors as webhook_selectors
from apps.webhooks import services as webhook_services
from apps.webhooks.models import WebhookSubscription

LOG_SIZE = 50


def _subscriptions(request: PanelRequest) -> QuerySet[WebhookSubscription]:
    return webhook_selectors.subscriptions_of_owner(request.user.owner_id)


def _subscription(request: PanelRequest, subscription_id: int) -> WebhookSubscription:
    return owned_or_404(_subscriptions(request), request, pk=subscription_id)


def _to_subscription(subscription: WebhookSubscription) -> HttpResponseRedirect:
    return redirect("panel:webhook", subscription_id=subscription.pk)


_subscription_action = object_action(_subscription, _to_subscription, access=OWNER_ONLY, id_name="subscription_id")


def _create(request: PanelRequest, data: dict[str, Any]) -> HttpResponseRedirect:
    subscription, secret = webhook_services.subscription_create(
        owner=request.user.owner, url=data["url"], events=data["events"]
    )
    put_once(request, f"webhook-secret:{subscription.pk}", secret)
    return _to_subscription(subscription)


@panel_page(OWNER_ONLY)
def webhook_list(request: PanelRequest) -> HttpResponseBase:
    form = WebhookCreateForm(request.POST or None)
    if (created := form_posted(request, form, lambda data: _create(request, data))) is not None:
        return created
    context = {"subscriptions": _subscriptions(request).order_by("pk"), "form": form}
    return render_page(request, "panel/webhooks.html", context, section="webhooks")


@panel_page(OWNER_ONLY)
def webhook_detail(request: PanelRequest, subscription_id: int) -> HttpResponse:
    subscription = _subscription(request, subscription_id)
    deliveries = webhook_selectors.delivery_log(subscription)[:LOG_SIZE]
    context = {
        "subscription": subscription,
        "secret": take_once(request, f"webhook-secret:{subscription.pk}"),
        "deliveries": deliveries,
    }
    return render_page(request, "panel/webhook_detail.html", context, section="webhooks")


@_subscription_action
def webhook_test(subscription: WebhookSubscription) -> str:
    delivery = webhook_services.subscription_send_test(subscription=subscription)
    return _("Test event sent as delivery {delivery}; its result is in the log below.").format(delivery=delivery.pk)


@_subscription_action
def webhook_reenable(subscription: WebhookSubscription) -> str:
    webhook_services.subscription_reenable(subscription=subscription)
    return _("Deliveries are on again. Resend any skipped event from the log.")


@object_action(_subscription, lambda _: redirect("panel:webhooks"), access=OWNER_ONLY, id_name="subscription_id")
def webhook_delete(subscription: WebhookSubscription) -> str:
    webhook_services.subscription_delete(subscription=subscription)
    return _("Webhook to {url} deleted.").format(url=subscription.url)


@panel_page(OWNER_ONLY)
@require_POST
def delivery_resend(request: PanelRequest, delivery_id: int) -> HttpResponseRedirect:
    delivery = owned_or_404(
        webhook_selectors.deliveries_of_owner(request.user.owner_id), request, "subscription__owner", pk=delivery_id
    )
    try:
        webhook_services.delivery_resend(delivery=delivery)
    except DomainError as exc:
        report_error(request, exc)
    else:
        messages.success(request, _("Delivery {delivery} sent again.").format(delivery=delivery.pk))
    return redirect("panel:webhook", subscription_id=delivery.subscription_id)
