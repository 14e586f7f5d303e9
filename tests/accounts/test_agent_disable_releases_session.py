"""Disabling an agent ends the customer session it holds as `technical_issue`, in the same call
that signs it out and revokes its tokens: the kiosk is told and its poll shows `failed`,
`session.ended` goes to the owner's webhooks, and a payment in progress is cancelled."""

import pytest
from django.test import Client

from apps.accounts import services as account_services
from apps.accounts.models import PersonalAccessToken, User
from apps.billing.models import Payment
from apps.billing.services import payments
from apps.core.errors import DomainError
from apps.sessions import ending
from apps.sessions import services as session_services
from apps.sessions.models import Session
from apps.webhooks import services as webhook_services
from apps.webhooks.models import WebhookDelivery
from tests import factories
from tests.conftest import AgentClient, kiosk_client_for


@pytest.fixture
def ended_hook(owner, receiver):
    subscription, _ = webhook_services.subscription_create(owner=owner, url=receiver.url, events=["session.ended"])
    return subscription


@pytest.fixture
def panel_owner_client(owner) -> Client:
    client = Client()
    client.force_login(factories.PanelUserFactory(owner=owner, panel_role="owner"))
    return client


def _accepted(kiosk, agent) -> Session:
    pending = factories.SessionFactory(kiosk=kiosk)
    return session_services.session_accept(public_id=pending.public_id, agent=agent)


def _status_poll(kiosk, session) -> dict:
    response = kiosk_client_for(kiosk).get(f"/api/public/sessions/{session.public_id}/status")
    assert response.status_code == 200, response.content
    return response.json()


def _assert_ended_for_disabled_agent(session, kiosk, agent, ended_hook, broadcasts):
    ended = Session.objects.get(pk=session.pk)
    assert (ended.status, ended.end_reason) == ("failed", "technical_issue")
    assert "disabled" in ended.notes and ended.ended_at is not None
    poll = _status_poll(kiosk, session)
    assert poll["status"] == "failed" and poll["end_reason"] == "technical_issue"
    [delivery] = WebhookDelivery.objects.filter(subscription=ended_hook, event__name="session.ended")
    assert delivery.event.payload["reason"] == "technical_issue" and delivery.event.payload["status"] == "failed"
    told = [data for channels, event, data in broadcasts if event == "SessionStatusChanged"]
    assert told and told[-1]["status"] == "failed" and told[-1]["session_id"] == session.public_id
    assert all(
        channels == [f"private-kiosk.{kiosk.pk}"]
        for channels, event, _ in broadcasts
        if event == "SessionStatusChanged"
    )
    agent = User.objects.get(pk=agent.pk)
    assert not agent.is_active and agent.agent_status == "offline"  # not put back to available by the end


def test_disabling_from_the_panel_ends_the_active_session_and_signs_the_agent_out(
    owner, kiosk, agent, agent_client, ended_hook, broadcasts, panel_owner_client
):
    session = _accepted(kiosk, agent)
    _, token = account_services.access_token_issue(user=agent)
    assert _status_poll(kiosk, session)["status"] == "active"  # the poll's cached copy is now stale

    response = panel_owner_client.post(f"/panel/agents/{agent.pk}/disable")

    assert response.status_code == 302
    _assert_ended_for_disabled_agent(session, kiosk, agent, ended_hook, broadcasts)
    assert not PersonalAccessToken.objects.filter(user=agent, revoked_at=None).exists()
    assert Client().get("/api/v1/user", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert agent_client.get("/api/user").status_code == 401
    again = AgentClient().sign_in(agent.email)
    assert again.status_code == 403 and again.json()["error"]["code"] == "ACCOUNT_DISABLED"


def test_a_session_in_payment_is_ended_and_its_intent_cancelled(
    kiosk, agent, cart_session, processor, billing, kiosk_events, ended_hook, broadcasts
):
    _, payment = payments.payment_request(public_id=cart_session.public_id, agent=agent)
    assert Session.objects.get(pk=cart_session.pk).status == "payment"

    ended = ending.agent_disable(agent=agent)

    assert [session.public_id for session in ended] == [cart_session.public_id]
    _assert_ended_for_disabled_agent(cart_session, kiosk, agent, ended_hook, broadcasts)
    assert processor.calls_to(f"/v1/payment_intents/{payment.intent_id}/cancel")
    assert Payment.objects.get(pk=payment.pk).status == "canceled"


def test_an_agent_with_no_session_is_just_disabled(agent, ended_hook):
    assert ending.agent_disable(agent=agent) == []
    assert not User.objects.get(pk=agent.pk).is_active
    assert not WebhookDelivery.objects.exists()


def test_a_disabled_agent_cannot_accept_a_session_it_was_already_authenticated_for(kiosk, agent):
    """The race: a request authenticated just before the disable commits still reaches accept."""
    pending = factories.SessionFactory(kiosk=kiosk)
    stale_agent = User.objects.get(pk=agent.pk)
    ending.agent_disable(agent=agent)
    with pytest.raises(DomainError) as refused:
        session_services.session_accept(public_id=pending.public_id, agent=stale_agent)
    assert refused.value.code == "ACCOUNT_DISABLED"
    assert Session.objects.get(pk=pending.pk).status == "pending"


def test_other_owners_sessions_and_agents_are_untouched(kiosk, agent, other_business, panel_owner_client):
    other_agent = factories.AgentFactory(owner=other_business.owner)
    other_session = _accepted(factories.KioskFactory(business=other_business), other_agent)
    _accepted(kiosk, agent)

    # Another owner's agent is a 404 in the panel, and nothing happens to it.
    assert panel_owner_client.post(f"/panel/agents/{other_agent.pk}/disable").status_code == 404
    assert User.objects.get(pk=other_agent.pk).is_active
    ending.agent_disable(agent=agent)
    assert Session.objects.get(pk=other_session.pk).status == "active"
    assert User.objects.get(pk=other_agent.pk).agent_status == "busy"


def test_a_processor_outage_leaves_the_payment_as_it_is_and_disabling_again_retries(
    kiosk, agent, cart_session, processor, billing, kiosk_events, ended_hook, broadcasts
):
    _, payment = payments.payment_request(public_id=cart_session.public_id, agent=agent)
    processor.fail(503, times=3)  # the cancel fails, retries included

    assert ending.agent_disable(agent=agent) == []

    assert not User.objects.get(pk=agent.pk).is_active  # the agent is out whatever the processor says
    assert Session.objects.get(pk=cart_session.pk).status == "payment"
    assert Payment.objects.get(pk=payment.pk).status != "canceled"
    assert not WebhookDelivery.objects.filter(event__name="session.ended").exists()

    processor.failures.clear()  # the processor is back
    [ended] = ending.agent_disable(agent=agent)
    assert ended.public_id == cart_session.public_id
    _assert_ended_for_disabled_agent(cart_session, kiosk, agent, ended_hook, broadcasts)
    assert Payment.objects.get(pk=payment.pk).status == "canceled"
