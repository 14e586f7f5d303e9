"""Password spraying: one address trying many emails is refused after LOGIN_IP_FAILURE_LIMIT
failures in LOGIN_IP_FAILURE_WINDOW (20 in 10 minutes), on every sign-in route: the agent API,
the token API and the owner panel, which share the count. 429 RATE_LIMITED with Retry-After."""

import pytest
from django.conf import settings
from django.test import Client

from tests import factories
from tests.conftest import AgentClient
from tests.support.auth import error_of, frozen_clock

ATTACKER = "198.51.100.66"


def agent_login(email: str, password: str = "wrong-password", ip: str = ATTACKER):
    client = AgentClient(REMOTE_ADDR=ip)
    client.get("/api/csrf-cookie")
    return client.post("/api/login", {"email": email, "password": password, "remember": False})


def token_login(email: str, password: str = "wrong-password", ip: str = ATTACKER):
    body = {"email": email, "password": password}
    return Client(REMOTE_ADDR=ip).post("/api/auth/login", body, content_type="application/json")


def panel_login(email: str, password: str = "wrong-password", ip: str = ATTACKER):
    return Client(REMOTE_ADDR=ip).post("/panel/login", {"email": email, "password": password})


def refused(response) -> int:
    """The route's 429 in its own form; returns Retry-After."""
    if response["Content-Type"].startswith("application/json"):
        error = error_of(response, 429, "RATE_LIMITED")
        assert response["Retry-After"] in error["message"]
    else:
        assert response.status_code == 429, response.status_code
        assert b"Too many failed sign-in attempts from this address." in response.content  # said on the form
    return int(response["Retry-After"])


WRONG = {agent_login: 401, token_login: 401, panel_login: 200}  # the panel re-shows its form


@pytest.mark.parametrize("sign_in", [agent_login, token_login, panel_login], ids=["agent", "token", "panel"])
def test_one_address_spraying_many_emails_is_refused_after_the_limit(db, sign_in):
    limit = settings.LOGIN_IP_FAILURE_LIMIT
    assert limit == 20 and settings.LOGIN_IP_FAILURE_WINDOW == 600
    with frozen_clock():
        answers = [sign_in(f"victim{n}@example.test").status_code for n in range(limit)]
        assert answers == [WRONG[sign_in]] * limit
        wait = refused(sign_in("victim-next@example.test"))
        assert 1 <= wait <= 601
        # Refused before the password is even checked: the right one is refused too.
        agent = factories.AgentFactory()
        user = factories.PanelUserFactory() if sign_in is panel_login else agent
        refused(sign_in(user.email, factories.PASSWORD))
        # Another address is not affected.
        assert sign_in(user.email, factories.PASSWORD, ip="198.51.100.67").status_code in {200, 302}


def test_the_routes_share_one_count_per_address(db):
    routes = [agent_login, token_login, panel_login]
    with frozen_clock():
        for n in range(settings.LOGIN_IP_FAILURE_LIMIT):  # 20 failures spread over the three routes
            sign_in = routes[n % 3]
            assert sign_in(f"victim{n}@example.test").status_code == WRONG[sign_in]
        for sign_in in routes:
            refused(sign_in("one-more@example.test"))


def test_the_window_ends_and_a_success_does_not_reset_the_count(db):
    agent = factories.AgentFactory()
    limit = settings.LOGIN_IP_FAILURE_LIMIT
    with frozen_clock() as clock:
        for n in range(limit - 1):
            assert token_login(f"victim{n}@example.test").status_code == 401
        # The attacker's own account signs in: the address's count stays (only email + IP resets).
        assert token_login(agent.email, factories.PASSWORD).status_code == 200
        assert token_login("victim-last@example.test").status_code == 401
        wait = refused(token_login("victim-more@example.test"))
        clock.advance(seconds=wait)
        assert token_login("victim-after@example.test").status_code == 401  # a new window
