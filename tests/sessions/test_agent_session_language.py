"""The agent sees the customer's language: the accept answer, the current session and one session's
detail carry `customer_locale` as the kiosk sent it."""

from tests import factories


def test_accept_current_and_detail_carry_the_customers_language(agent, agent_client, kiosk):
    pending = factories.SessionFactory(kiosk=kiosk, customer_locale="es-ES")
    accepted = agent_client.post(f"/api/sessions/{pending.public_id}/accept")
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["session"]["customer_locale"] == "es-ES"
    assert agent_client.get("/api/sessions/current").json()["session"]["customer_locale"] == "es-ES"
    detail = agent_client.get(f"/api/sessions/{pending.public_id}").json()
    assert detail["session"]["customer_locale"] == "es-ES"
