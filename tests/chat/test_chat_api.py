"""The session chat: GET/POST /api/public/sessions/{id}/chat (kiosk) and /api/sessions/{id}/chat
(the session's current agent). Messages are kept with the session, plain text, length-limited,
delivered as ChatMessage on the call channel; every refusal in the error envelope."""

import pytest
from django.utils import timezone

from apps.chat.models import ChatMessage
from tests import factories
from tests.conftest import AgentClient, kiosk_client_for


def kiosk_url(session) -> str:
    return f"/api/public/sessions/{session.public_id}/chat"


def agent_url(session) -> str:
    return f"/api/sessions/{session.public_id}/chat"


def signed_in(agent) -> AgentClient:
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    return client


def error_code(response, status: int) -> str:
    assert response.status_code == status, response.content
    return response.json()["error"]["code"]


@pytest.fixture
def session(kiosk, agent):
    return factories.SessionFactory(kiosk=kiosk, agent=agent, status="active", accepted_at=timezone.now())


def test_messages_cross_both_ways_and_are_kept_with_the_session(session, kiosk_client, agent, agent_client, broadcasts):
    sent = kiosk_client.post(kiosk_url(session), {"text": "  Can you repeat?  "}, content_type="application/json")
    assert sent.status_code == 201, sent.content
    body = sent.json()
    assert body["text"] == "Can you repeat?" and body["sender"] == "kiosk" and body["sender_name"] is None
    assert body["session_id"] == session.public_id
    reply = agent_client.post(agent_url(session), {"text": "<b>Sure</b>: a burger?"})
    assert reply.status_code == 201, reply.content
    assert reply.json()["sender"] == "agent" and reply.json()["sender_name"] == agent.name
    assert reply.json()["text"] == "<b>Sure</b>: a burger?"  # kept as typed: clients show text, not markup

    rows = list(ChatMessage.objects.filter(session=session).values_list("sender", "agent_id", "text"))
    assert rows == [("kiosk", None, "Can you repeat?"), ("agent", agent.pk, "<b>Sure</b>: a burger?")]
    for client, url in ((kiosk_client, kiosk_url(session)), (agent_client, agent_url(session))):
        listed = client.get(url)
        assert listed.status_code == 200
        assert [m["text"] for m in listed.json()["messages"]] == ["Can you repeat?", "<b>Sure</b>: a burger?"]
        assert listed.json()["has_more"] is False
    chat_events = [b for b in broadcasts if b.event == "ChatMessage"]
    assert [(b.channels, b.data["text"]) for b in chat_events] == [
        ([f"private-call.{session.public_id}"], "Can you repeat?"),
        ([f"private-call.{session.public_id}"], "<b>Sure</b>: a burger?"),
    ]
    assert chat_events[0].data == body


def test_the_list_paginates_after_an_id(session, kiosk_client):
    for n in range(5):
        assert (
            kiosk_client.post(kiosk_url(session), {"text": f"m{n}"}, content_type="application/json").status_code == 201
        )
    first = kiosk_client.get(kiosk_url(session), {"limit": 2}).json()
    assert [m["text"] for m in first["messages"]] == ["m0", "m1"] and first["has_more"] is True
    rest = kiosk_client.get(kiosk_url(session), {"limit": 100, "after": first["messages"][-1]["id"]}).json()
    assert [m["text"] for m in rest["messages"]] == ["m2", "m3", "m4"] and rest["has_more"] is False
    for query in ({"limit": 0}, {"limit": 101}, {"after": -1}, {"after": "x"}):
        assert error_code(kiosk_client.get(kiosk_url(session), query), 422) == "VALIDATION_ERROR"


@pytest.mark.parametrize(
    "text", ["", "   ", "x" * 501, "bell\x07", None, 12], ids=["empty", "blank", "long", "control", "null", "number"]
)
def test_bad_text_is_422_and_writes_nothing(session, kiosk_client, text):
    response = kiosk_client.post(kiosk_url(session), {"text": text}, content_type="application/json")
    assert error_code(response, 422) == "VALIDATION_ERROR"
    assert response.json()["error"]["details"]["text"]
    assert not ChatMessage.objects.exists()


def test_the_length_limit_is_a_setting(settings, session, kiosk_client):
    settings.CHAT_MESSAGE_MAX_LENGTH = 3
    assert kiosk_client.post(kiosk_url(session), {"text": "Yes"}, content_type="application/json").status_code == 201
    assert error_code(kiosk_client.post(kiosk_url(session), {"text": "Nope"}, content_type="application/json"), 422)


def test_another_kiosk_another_agent_and_another_owner_get_404(session, business, owner, other_business):
    other_kiosk = kiosk_client_for(factories.KioskFactory(business=business))
    colleague = signed_in(factories.AgentFactory(owner=owner))
    stranger = signed_in(factories.AgentFactory(owner=other_business.owner))
    for client, url in (
        (other_kiosk, kiosk_url(session)),
        (colleague, agent_url(session)),
        (stranger, agent_url(session)),
    ):
        assert error_code(client.get(url), 404) == "SESSION_NOT_FOUND"
        post = client.post(url, {"text": "hi"}, content_type="application/json")
        assert error_code(post, 404) == "SESSION_NOT_FOUND"
    assert not ChatMessage.objects.exists()


def test_writing_needs_a_live_session_but_the_history_stays_readable(kiosk, kiosk_client, agent, agent_client):
    session = factories.SessionFactory(kiosk=kiosk)
    post = kiosk_client.post(kiosk_url(session), {"text": "hello?"}, content_type="application/json")
    assert error_code(post, 409) == "INVALID_STATE"
    type(session).objects.filter(pk=session.pk).update(status="active", agent=agent, accepted_at=timezone.now())
    assert agent_client.post(agent_url(session), {"text": "Hello"}).status_code == 201
    type(session).objects.filter(pk=session.pk).update(status="completed", ended_at=timezone.now())
    assert error_code(agent_client.post(agent_url(session), {"text": "Bye"}), 409) == "SESSION_ALREADY_ENDED"
    assert [m["text"] for m in kiosk_client.get(kiosk_url(session)).json()["messages"]] == ["Hello"]


def test_unauthenticated_calls_are_401(session):
    from django.test import Client

    assert error_code(Client().get(kiosk_url(session)), 401)
    assert error_code(Client().get(agent_url(session)), 401) == "UNAUTHENTICATED"
