"""Guesses shared out over many addresses: failed sign-ins are also counted per account, from any
address, on every sign-in route (agent API, token API, owner panel); after
LOGIN_ACCOUNT_FAILURE_LIMIT (10 in 15 minutes) the account's sign-in is locked for the rest of
the window: 429 RATE_LIMITED with Retry-After, the right password refused too. The owner sees the
lockout on the panel's Agents page and may lift it. The audit: 30 addresses each tried one
password on one account and nothing stopped them."""

import re
import zoneinfo
from datetime import datetime, timedelta

import pytest
from django.conf import settings
from django.test import Client

from tests import factories
from tests.accounts.test_signin_ip_limit import WRONG, agent_login, panel_login, token_login
from tests.support.auth import error_of, frozen_clock


def address(n: int) -> str:
    return f"203.0.113.{n + 1}"


def refused(response) -> int:
    if response["Content-Type"].startswith("application/json"):
        error = error_of(response, 429, "RATE_LIMITED")
        assert "this account" in error["message"] and response["Retry-After"] in error["message"]
    else:
        assert response.status_code == 429
        assert b"Too many failed sign-in attempts on this account" in response.content
    return int(response["Retry-After"])


@pytest.mark.parametrize("sign_in", [agent_login, token_login, panel_login], ids=["agent", "token", "panel"])
def test_thirty_addresses_guessing_one_account_are_stopped_at_the_limit(db, sign_in):
    user = factories.PanelUserFactory() if sign_in is panel_login else factories.AgentFactory()
    limit = settings.LOGIN_ACCOUNT_FAILURE_LIMIT
    assert limit == 10 and settings.LOGIN_ACCOUNT_FAILURE_WINDOW == 900
    with frozen_clock() as clock:
        answers = [sign_in(user.email, ip=address(n)).status_code for n in range(limit)]
        assert answers == [WRONG[sign_in]] * limit
        waits = [refused(sign_in(user.email.upper(), ip=address(n))) for n in range(limit, 30)]
        assert all(1 <= wait <= 901 for wait in waits)
        # locked: the right password from a fresh address is refused too
        refused(sign_in(user.email, factories.PASSWORD, ip="192.0.2.200"))
        # another account is not
        other = factories.PanelUserFactory() if sign_in is panel_login else factories.AgentFactory()
        assert sign_in(other.email, factories.PASSWORD, ip=address(3)).status_code in {200, 302}
        clock.advance(seconds=waits[-1])
        assert sign_in(user.email, factories.PASSWORD, ip="192.0.2.200").status_code in {200, 302}


def test_the_routes_share_one_count_per_account_and_a_success_does_not_reset_it(db):
    agent = factories.AgentFactory()
    routes = [agent_login, token_login, panel_login]
    with frozen_clock():
        for n in range(settings.LOGIN_ACCOUNT_FAILURE_LIMIT - 1):
            sign_in = routes[n % 3]
            assert sign_in(agent.email, ip=address(n)).status_code == WRONG[sign_in]
        assert token_login(agent.email, factories.PASSWORD, ip=address(40)).status_code == 200
        assert agent_login(agent.email, ip=address(41)).status_code == 401  # the tenth
        for sign_in in routes:
            refused(sign_in(agent.email, factories.PASSWORD, ip=address(42)))


def _lock(agent) -> None:
    for n in range(settings.LOGIN_ACCOUNT_FAILURE_LIMIT):
        assert token_login(agent.email, ip=address(n)).status_code == 401


def test_the_owner_sees_the_lockout_and_may_lift_it(db, owner, business):
    business.timezone = "Asia/Kolkata"  # the time is given in the owner's zone
    business.save(update_fields=["timezone"])
    agent = factories.AgentFactory(owner=owner)
    panel = Client()
    panel.force_login(factories.PanelUserFactory(owner=owner, panel_role="owner"))
    with frozen_clock():
        assert "Sign-in locked" not in panel.get("/panel/agents").content.decode()
        _lock(agent)
        page = panel.get("/panel/agents").content.decode()
        [until] = re.findall(r"Sign-in locked until (\d\d:\d\d) after 10 failed attempts", page)
        expected = (datetime.now(tz=zoneinfo.ZoneInfo("Asia/Kolkata")) + timedelta(seconds=900)).strftime("%H:%M")
        assert until == expected
        assert f"/panel/agents/{agent.pk}/unlock-sign-in" in page
        # another owner cannot lift it
        stranger = Client()
        stranger.force_login(factories.PanelUserFactory(owner=factories.OwnerFactory(), panel_role="owner"))
        assert stranger.post(f"/panel/agents/{agent.pk}/unlock-sign-in").status_code == 404
        refused(token_login(agent.email, factories.PASSWORD, ip="192.0.2.9"))
        answer = panel.post(f"/panel/agents/{agent.pk}/unlock-sign-in")
        assert answer.status_code == 302
        assert "Sign-in locked" not in panel.get("/panel/agents").content.decode()
        assert token_login(agent.email, factories.PASSWORD, ip="192.0.2.9").status_code == 200


def test_a_manager_cannot_lift_a_lockout(db, owner):
    agent = factories.AgentFactory(owner=owner)
    manager = Client()
    manager.force_login(factories.PanelUserFactory(owner=owner, panel_role="manager"))
    _lock(agent)
    assert manager.post(f"/panel/agents/{agent.pk}/unlock-sign-in").status_code in {403, 404}
    refused(token_login(agent.email, factories.PASSWORD, ip="192.0.2.9"))
