"""Billing (owner only): plan, this month's usage and costs, the processor account with its
onboarding link, and the dunning state."""

from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from apps.billing import selectors as billing_selectors
from apps.billing.plans import RATE_CENTS_PER_MINUTE
from apps.billing.services import connect
from apps.core.errors import DomainError
from apps.demo_processor import mode as processor_mode
from apps.demo_processor import selectors as demo_selectors
from apps.panel import stats
from apps.panel.access import OWNER_ONLY, PanelRequest, panel_page
from apps.panel.pages import render_page, report_error


@panel_page(OWNER_ONLY)
def billing_page(request: PanelRequest) -> HttpResponse:
    owner_id = request.user.owner_id
    billing = billing_selectors.billing_of_owner(owner_id)
    period_start = stats.today_start().replace(day=1)
    context = {
        "billing": billing,
        "rate_cents": RATE_CENTS_PER_MINUTE[billing.plan],
        "period_start": period_start,
        "usage": stats.billing_usage(owner_id, period_start),
        "demo_payments": processor_mode.active(),
        "demo_account": processor_mode.active()
        and bool(billing.account_id)
        and demo_selectors.demo_account_exists(billing.account_id),
        "demo_notice": processor_mode.NOTICE,
    }
    return render_page(request, "panel/billing.html", context, section="billing")


@panel_page(OWNER_ONLY)
@require_POST
def billing_onboarding(request: PanelRequest) -> HttpResponseRedirect:
    """Send the owner to the processor's hosted onboarding for their own account."""
    here = request.build_absolute_uri(reverse("panel:billing"))
    try:
        url = connect.onboarding_link(owner=request.user.owner, refresh_url=here, return_url=here)
    except DomainError as exc:
        report_error(request, exc)
        return redirect("panel:billing")
    return redirect(url)
