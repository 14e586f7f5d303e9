"""The supervisor's Queue page (server-rendered): who waits with their language and wait, the
owner's agents by state, today's shares; another owner's line never shows."""

from datetime import timedelta

from django.utils import timezone

from apps.accounts.models import AgentStatus
from apps.routing import offers
from tests import factories


def test_the_queue_page_shows_the_line_the_agents_by_state_and_todays_shares(owner_client, owner, business):
    now = timezone.now()
    kiosk = factories.KioskFactory(business=business, name="Front counter")
    waiting = factories.SessionFactory(kiosk=kiosk, customer_locale="es-MX", created_at=now - timedelta(seconds=42))
    serving = factories.AgentFactory(owner=owner, name="Sam", agent_status=AgentStatus.BUSY)
    factories.SessionFactory(
        kiosk=factories.KioskFactory(business=business),
        status="active",
        agent=serving,
        created_at=now - timedelta(seconds=100),
        accepted_at=now - timedelta(seconds=90),
    )
    factories.SessionFactory(
        kiosk=factories.KioskFactory(business=business), status="abandoned", created_at=now - timedelta(seconds=50)
    )
    factories.AgentFactory(owner=owner, name="Olga", languages=["es"])  # offered the waiting one
    factories.AgentFactory(owner=owner, name="Bea", agent_status=AgentStatus.BREAK)
    factories.AgentFactory(owner=owner, name="Otto", last_seen_at=None)  # not signed in
    offers.offers_dispatch()
    other = factories.BusinessFactory()
    factories.SessionFactory(kiosk=factories.KioskFactory(business=other, name="Elsewhere"))
    factories.AgentFactory(owner=other.owner, name="Zed")

    page = owner_client.get("/panel/queue")
    assert page.status_code == 200
    html = page.content.decode()
    assert f'data-session-id="{waiting.public_id}"' in html and "Elsewhere" not in html and "Zed" not in html
    [row] = page.context["waiting"]
    assert (row.language, row.kiosk) == ("es", "Front counter") and 42 <= row.waiting_seconds <= 50
    assert "<td>es</td>" in html
    assert f'<td class="ticking" data-seconds="{row.waiting_seconds}">{row.waiting_seconds} s</td>' in html
    states = {agent.name: agent.state for agent in page.context["agents"]}
    assert states == {"Sam": "serving", "Olga": "offered", "Bea": "break", "Otto": "offline"}
    [sam] = [agent for agent in page.context["agents"] if agent.name == "Sam"]
    assert 90 <= sam.in_session_seconds <= 98
    today = page.context["today"]
    assert (today.sessions, today.answered_within_30s, today.abandoned_waiting) == (3, 1 / 3, 1 / 3)
    assert 'http-equiv="refresh"' not in html  # live-queue.js reloads the board instead
    assert 'src="/static/panel/live-queue.js"' in html and 'data-board-url="/panel/queue/board"' in html
    board = owner_client.get("/panel/queue/board")
    assert board.status_code == 200
    fragment = board.content.decode()
    assert f'data-session-id="{waiting.public_id}"' in fragment and "<html" not in fragment
    assert 'id="agent-states"' in fragment and "Elsewhere" not in fragment


def test_managers_see_the_queue_and_strangers_are_sent_to_sign_in(manager_client, client):
    assert manager_client.get("/panel/queue").status_code == 200
    assert client.get("/panel/queue").status_code == 302
    assert manager_client.get("/panel/queue/board").status_code == 200
    assert client.get("/panel/queue/board").status_code == 302
