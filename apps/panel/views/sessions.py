"""Session history: kiosk, agent, waiting time, talk time, end reason, notes, cost."""

from django.core.paginator import Paginator
from django.http import HttpResponse

from apps.panel.access import ANY_ROLE, PanelRequest, panel_page
from apps.panel.forms import SessionFilterForm
from apps.panel.pages import render_page
from apps.panel.views.orders import day_end, day_start
from apps.sessions import selectors as session_selectors
from apps.sessions.pricing import session_cost_cents

PAGE_SIZE = 25


@panel_page(ANY_ROLE)
def session_list(request: PanelRequest) -> HttpResponse:
    form = SessionFilterForm(request.GET or None)
    sessions = (
        session_selectors.sessions_of_owner(request.user.owner_id)
        .select_related("kiosk", "agent", "business")
        .order_by("-created_at", "-pk")
    )
    if form.is_valid():
        data = form.cleaned_data
        if data["end_reason"]:
            sessions = sessions.filter(end_reason=data["end_reason"])
        if data["date_from"]:
            sessions = sessions.filter(created_at__gte=day_start(data["date_from"]))
        if data["date_to"]:
            sessions = sessions.filter(created_at__lte=day_end(data["date_to"]))
    page = Paginator(sessions, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [
        {
            "session": session,
            "waiting_seconds": int((session.accepted_at - session.created_at).total_seconds())
            if session.accepted_at
            else None,
            "cost_cents": session_cost_cents(session) if session.ended_at else None,
        }
        for session in page
    ]
    query = request.GET.copy()
    query.pop("page", None)
    context = {"form": form, "page": page, "rows": rows, "query": query.urlencode()}
    return render_page(request, "panel/sessions.html", context, section="sessions")
