"""What the transfer tests share: an agent's signed-in client, a session an agent accepted
through the API (so its Assignment exists), and the messages of one event on one channel."""

from apps.sessions.models import Session
from tests import factories
from tests.conftest import AgentClient


def signed_in_client(agent) -> AgentClient:
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    return client


def serving(kiosk, client) -> Session:
    """A session of `kiosk` that the client's agent accepted through the API."""
    session = factories.SessionFactory(kiosk=kiosk)
    response = client.post(f"/api/sessions/{session.public_id}/accept")
    assert response.status_code == 200, response.content
    session.refresh_from_db()
    return session


def on(broadcasts, event, channel) -> list[dict]:
    return [data for channels, name, data in broadcasts if name == event and channel in channels]
