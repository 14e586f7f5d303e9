"""The supervisor's Queue page: who waits, what each agent is doing, today's service level.
Server-rendered; static/panel/live-queue.js reloads the board (`queue_board`, the same template
part) when the owner's channel says the line moved (QueueBoardChanged), or every 5 s without a
live link."""

from django.http import HttpResponse

from apps.panel.access import ANY_ROLE, PanelRequest, panel_page
from apps.panel.pages import render_page
from apps.panel.realtime import live_status_config
from apps.routing.supervisor import owner_line


def _board(request: PanelRequest) -> dict[str, object]:
    waiting, agents, today = owner_line(request.user.owner_id)
    return {"waiting": waiting, "agents": agents, "today": today}


@panel_page(ANY_ROLE)
def queue_page(request: PanelRequest) -> HttpResponse:
    context = {**_board(request), "live": live_status_config(request)}
    return render_page(request, "panel/queue.html", context, section="queue")


@panel_page(ANY_ROLE)
def queue_board(request: PanelRequest) -> HttpResponse:
    """The board alone (an HTML fragment), for the page's live reloads."""
    return render_page(request, "panel/_queue_board.html", _board(request), section="queue")
