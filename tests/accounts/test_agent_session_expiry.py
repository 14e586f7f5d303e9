"""The agent session lives 30 days from the last request (spec 5 and 8): any request resets the
clock, 30 days and one second of inactivity end it. Server-side, whatever the cookie says."""

from datetime import timedelta

import pytest
from django.test import Client

from apps.accounts.models import StoredSession
from apps.accounts.session_store import stored_key
from tests.conftest import AgentClient
from tests.support.auth import error_of, frozen_clock

THIRTY_DAYS = timedelta(days=30)
SESSION_COOKIE = "app_session"


def _signed_in_client(agent, remember: bool) -> AgentClient:
    client = AgentClient()
    assert client.sign_in(agent.email, remember=remember).status_code == 200
    return client


def _stored_expiry(client: Client):
    return StoredSession.objects.get(session_key=stored_key(client.cookies[SESSION_COOKIE].value)).expire_date


@pytest.mark.parametrize("remember", [True, False], ids=["remember", "browser-session"])
def test_a_session_idle_for_30_days_and_1_second_is_401(agent, remember):
    with frozen_clock() as clock:
        client = _signed_in_client(agent, remember)
        clock.advance(days=30, seconds=1)
        error_of(client.get("/api/sessions/incoming"), 401, "UNAUTHENTICATED")
        error_of(client.post("/api/agent/status", {"status": "break"}), 401, "UNAUTHENTICATED")


@pytest.mark.parametrize("remember", [True, False], ids=["remember", "browser-session"])
def test_a_session_idle_for_30_days_minus_1_second_still_works(agent, remember):
    with frozen_clock() as clock:
        client = _signed_in_client(agent, remember)
        clock.advance(days=30, seconds=-1)
        assert client.get("/api/sessions/incoming").status_code == 200


def test_a_request_at_day_29_keeps_the_session_for_30_more_days(agent):
    with frozen_clock() as clock:
        client = _signed_in_client(agent, remember=True)
        clock.advance(days=29)
        assert client.get("/api/sessions/incoming").status_code == 200
        assert _stored_expiry(client) == clock.now() + THIRTY_DAYS

        clock.advance(days=30, seconds=-1)  # 59 days after sign-in, 30 days minus 1 s of inactivity
        assert client.get("/api/sessions/incoming").status_code == 200

        clock.advance(days=30, seconds=1)
        error_of(client.get("/api/sessions/incoming"), 401, "UNAUTHENTICATED")


def test_every_request_pushes_the_server_side_expiry_and_refreshes_a_remembered_cookie(agent):
    with frozen_clock() as clock:
        client = _signed_in_client(agent, remember=True)
        assert _stored_expiry(client) == clock.now() + THIRTY_DAYS
        clock.advance(days=10)

        response = client.get("/api/user")

        assert response.status_code == 200
        assert _stored_expiry(client) == clock.now() + THIRTY_DAYS
        assert int(response.cookies[SESSION_COOKIE]["max-age"]) == int(THIRTY_DAYS.total_seconds())


def test_a_browser_session_cookie_stays_a_browser_session_cookie_when_refreshed(agent):
    with frozen_clock() as clock:
        client = _signed_in_client(agent, remember=False)
        clock.advance(days=10)
        response = client.get("/api/user")
        assert response.status_code == 200
        assert response.cookies[SESSION_COOKIE]["max-age"] == ""
        assert _stored_expiry(client) == clock.now() + THIRTY_DAYS


def test_a_refused_mutation_also_counts_as_activity(agent):
    """ "Any request resets the clock": even one answered 419."""
    with frozen_clock() as clock:
        client = _signed_in_client(agent, remember=True)
        clock.advance(days=20)
        error_of(
            client.post("/api/agent/status", {"status": "break"}, headers={"X-XSRF-TOKEN": "x"}), 419, "CSRF_MISMATCH"
        )
        clock.advance(days=20)
        assert client.get("/api/sessions/incoming").status_code == 200


def test_an_expired_session_does_not_come_back_after_more_requests(agent):
    with frozen_clock() as clock:
        client = _signed_in_client(agent, remember=True)
        clock.advance(days=31)
        error_of(client.get("/api/sessions/incoming"), 401, "UNAUTHENTICATED")
        error_of(client.get("/api/user"), 401, "UNAUTHENTICATED")
