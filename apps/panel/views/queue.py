"""The supervisor's Queue page: who waits, what each agent is doing, today's service level.
Server-rendered; it refreshes itself every 5 s (a meta refresh, no script)."""

from apps.panel.access import ANY_ROLE, panel_page
from apps.panel.pages import render_page
from apps.sessions.supervisor import owner_line


@panel_page(ANY_ROLE)
def queue_page(request):
    waiting, agents, today = owner_line(request.user.owner_id)
    context = {"waiting": waiting, "agents": agents, "today": today}
    return render_page(request, "panel/queue.html", context, section="queue")
