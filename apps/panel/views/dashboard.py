"""Dashboard: today's and this week's figures, charts, and the live kiosk status."""

from datetime import timedelta

from django.http import HttpResponse

from apps.kiosks import selectors as kiosk_selectors
from apps.panel import stats
from apps.panel.access import ANY_ROLE, PanelRequest, panel_page
from apps.panel.pages import render_page
from apps.panel.realtime import live_status_config


@panel_page(ANY_ROLE)
def dashboard(request: PanelRequest) -> HttpResponse:
    owner_id = request.user.owner_id
    today = stats.today_start()
    week = today - timedelta(days=6)
    kiosks = kiosk_selectors.kiosks_of_owner(owner_id).filter(unpaired_at=None).order_by("name", "pk")
    context = {
        "today": stats.period_figures(owner_id, today),
        "week": stats.period_figures(owner_id, week),
        "reasons": stats.end_reasons(owner_id, week),
        "per_day": stats.sessions_per_day(owner_id, 7),
        "kiosks": kiosk_selectors.seen_as_heard(kiosks),
        "live": live_status_config(request),
    }
    return render_page(request, "panel/dashboard.html", context, section="dashboard")
