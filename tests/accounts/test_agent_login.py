"""Agent sign-in on the cookie API (spec 5, DESIGN 2): the CSRF cookie, POST /api/login and its
cookies, the refusals, XSRF enforcement before and after sign-in, logout, and the login throttle."""

import pytest
from django.conf import settings
from django.test import Client

from apps.accounts.models import StoredSession, User
from apps.accounts.session_store import stored_key
from apps.sessions import ending
from tests import factories
from tests.conftest import AgentClient
from tests.support.auth import error_of, frozen_clock

THIRTY_DAYS = 30 * 24 * 3600
SESSION_COOKIE = "app_session"
XSRF_COOKIE = "XSRF-TOKEN"


def _login(client: Client, email: str, password: str = factories.PASSWORD, **extra):
    return client.post("/api/login", {"email": email, "password": password, "remember": False}, **extra)


def _fresh_client() -> AgentClient:
    client = AgentClient()
    assert client.get("/api/csrf-cookie").status_code == 204
    return client


# --- CSRF cookie -------------------------------------------------------------------------


def test_csrf_cookie_endpoint_answers_204_with_a_script_readable_cookie(db):
    response = Client().get("/api/csrf-cookie")
    assert response.status_code == 204
    assert response.content == b""
    cookie = response.cookies[XSRF_COOKIE]
    assert len(cookie.value) >= 32
    assert not cookie["httponly"]  # the dashboard's JavaScript must read it
    assert cookie["samesite"] == "Lax"
    assert SESSION_COOKIE not in response.cookies  # no session before sign-in


def test_each_csrf_cookie_call_issues_a_new_token(db):
    first = Client().get("/api/csrf-cookie").cookies[XSRF_COOKIE].value
    second = Client().get("/api/csrf-cookie").cookies[XSRF_COOKIE].value
    assert first != second


# --- Successful sign-in ------------------------------------------------------------------


def test_login_sets_a_locked_down_session_cookie_and_a_fresh_xsrf_token(agent):
    client = _fresh_client()
    pre_login_xsrf = client.cookies[XSRF_COOKIE].value

    response = _login(client, agent.email)

    assert response.status_code == 200, response.content
    session_cookie = response.cookies[SESSION_COOKIE]
    assert session_cookie.value
    assert session_cookie["httponly"] is True
    assert session_cookie["secure"] is True
    assert session_cookie["samesite"] == "Lax"
    xsrf_cookie = response.cookies[XSRF_COOKIE]
    assert xsrf_cookie.value and xsrf_cookie.value != pre_login_xsrf
    assert not xsrf_cookie["httponly"]
    # The session is stored server-side and belongs to the agent.
    stored = StoredSession.objects.get(session_key=stored_key(session_cookie.value))
    assert stored.get_decoded()["_auth_user_id"] == str(agent.pk)


def test_login_body_is_status_ok_and_the_agent(agent):
    response = _login(_fresh_client(), agent.email)
    assert response.json() == {
        "status": "ok",
        "user": {
            "id": agent.pk,
            "name": agent.name,
            "email": agent.email,
            "is_agent": True,
            "agent_status": "available",
            "languages": [],
            "status_reason": "",
            "status_message": "",
        },
    }


def test_signed_in_agent_can_use_the_agent_api(agent):
    client = _fresh_client()
    _login(client, agent.email)
    response = client.get("/api/sessions/incoming")
    assert response.status_code == 200
    assert response.json() == {"sessions": []}


def test_email_is_matched_case_insensitively(agent):
    response = _login(_fresh_client(), agent.email.upper())
    assert response.status_code == 200
    assert response.json()["user"]["id"] == agent.pk


def test_remember_false_gives_a_browser_session_cookie(agent):
    client = _fresh_client()
    response = client.post("/api/login", {"email": agent.email, "password": factories.PASSWORD, "remember": False})
    cookie = response.cookies[SESSION_COOKIE]
    assert cookie["max-age"] == ""
    assert cookie["expires"] == ""


def test_remember_true_gives_a_thirty_day_cookie(agent):
    client = _fresh_client()
    response = client.post("/api/login", {"email": agent.email, "password": factories.PASSWORD, "remember": True})
    cookie = response.cookies[SESSION_COOKIE]
    assert int(cookie["max-age"]) == THIRTY_DAYS
    assert cookie["expires"]


# --- Refusals ----------------------------------------------------------------------------


def test_wrong_password_is_401_invalid_credentials_and_sets_no_session(agent):
    response = _login(_fresh_client(), agent.email, "not-the-password")
    error = error_of(response, 401, "INVALID_CREDENTIALS")
    assert set(error) == {"code", "message"}
    assert SESSION_COOKIE not in response.cookies


def test_unknown_email_is_401_invalid_credentials(db):
    response = _login(_fresh_client(), "nobody@example.test")
    error_of(response, 401, "INVALID_CREDENTIALS")


def test_unknown_email_and_wrong_password_are_indistinguishable(agent):
    unknown = _login(_fresh_client(), "nobody@example.test").json()
    wrong = _login(_fresh_client(), agent.email, "nope-nope").json()
    assert unknown == wrong


@pytest.mark.parametrize("role", ["owner", "manager"])
def test_panel_user_is_403_panel_only_account(db, role):
    panel_user = factories.PanelUserFactory(panel_role=role)
    response = _login(_fresh_client(), panel_user.email)
    error_of(response, 403, "PANEL_ONLY_ACCOUNT")
    assert SESSION_COOKIE not in response.cookies


def test_panel_user_with_a_wrong_password_is_still_just_invalid_credentials(db):
    panel_user = factories.PanelUserFactory()
    error_of(_login(_fresh_client(), panel_user.email, "wrong-wrong"), 401, "INVALID_CREDENTIALS")


def test_disabled_agent_is_403_account_disabled(db):
    agent = factories.AgentFactory(is_active=False)
    response = _login(_fresh_client(), agent.email)
    error_of(response, 403, "ACCOUNT_DISABLED")
    assert SESSION_COOKIE not in response.cookies


@pytest.mark.parametrize(
    "body",
    [
        {"email": "not-an-email", "password": "x"},
        {"email": "a@example.test"},
        {"password": "x"},
        {"email": "a@example.test", "password": "x", "remember": "perhaps"},
    ],
)
def test_invalid_login_body_is_422_with_field_details(db, body):
    client = _fresh_client()
    error = error_of(client.post("/api/login", body), 422, "VALIDATION_ERROR")
    assert set(error["details"]) <= {"email", "password", "remember"} and error["details"]


# --- XSRF --------------------------------------------------------------------------------


def test_login_without_the_xsrf_header_is_419(agent):
    client = Client()
    client.get("/api/csrf-cookie")
    response = client.post(
        "/api/login", {"email": agent.email, "password": factories.PASSWORD}, content_type="application/json"
    )
    error = error_of(response, 419, "CSRF_MISMATCH")
    assert set(error) == {"code", "message"}
    assert SESSION_COOKIE not in response.cookies


def test_login_with_a_wrong_xsrf_header_is_419(agent):
    response = _login(_fresh_client(), agent.email, headers={"X-XSRF-TOKEN": "forged"})
    error_of(response, 419, "CSRF_MISMATCH")
    assert SESSION_COOKIE not in response.cookies


def test_login_without_any_xsrf_cookie_is_419(agent):
    response = _login(AgentClient(), agent.email, headers={"X-XSRF-TOKEN": "anything"})
    error_of(response, 419, "CSRF_MISMATCH")


def test_xsrf_is_checked_before_the_password(agent):
    """A forged cross-site login never reaches the password check (nor the failure counter)."""
    response = _login(_fresh_client(), agent.email, "wrong", headers={"X-XSRF-TOKEN": "forged"})
    error_of(response, 419, "CSRF_MISMATCH")


@pytest.mark.parametrize(
    "path,body", [("/api/agent/status", {"status": "break"}), ("/api/logout", None)], ids=["status", "logout"]
)
def test_authenticated_mutation_without_the_xsrf_header_is_419(agent, agent_client, path, body):
    plain = Client()
    plain.cookies = agent_client.cookies  # same cookies, but no header
    error_of(plain.post(path, body, content_type="application/json"), 419, "CSRF_MISMATCH")
    agent.refresh_from_db()
    assert agent.agent_status == "available"
    assert agent_client.get("/api/sessions/incoming").status_code == 200  # still signed in


@pytest.mark.parametrize(
    "path,body", [("/api/agent/status", {"status": "break"}), ("/api/logout", None)], ids=["status", "logout"]
)
def test_authenticated_mutation_with_a_wrong_xsrf_header_is_419(agent, agent_client, path, body):
    response = agent_client.post(path, body, headers={"X-XSRF-TOKEN": "wrong"})
    error_of(response, 419, "CSRF_MISMATCH")
    assert agent_client.get("/api/sessions/incoming").status_code == 200


def test_after_login_the_pre_login_token_is_refused(agent):
    client = _fresh_client()
    pre_login = client.cookies[XSRF_COOKIE].value
    assert _login(client, agent.email).status_code == 200

    response = client.post("/api/agent/status", {"status": "break"}, headers={"X-XSRF-TOKEN": pre_login})
    error_of(response, 419, "CSRF_MISMATCH")
    # The fresh, session-bound token works.
    assert client.post("/api/agent/status", {"status": "break"}).status_code == 200


def test_after_login_a_planted_cookie_and_matching_header_are_refused(agent, agent_client):
    """Double submit alone is not enough once signed in: the header must match the session's token."""
    agent_client.cookies[XSRF_COOKIE] = "planted-by-a-sibling-domain"
    response = agent_client.post("/api/agent/status", {"status": "break"})
    error_of(response, 419, "CSRF_MISMATCH")
    agent.refresh_from_db()
    assert agent.agent_status == "available"


def test_safe_methods_need_no_xsrf_header(agent_client):
    plain = Client()
    plain.cookies = agent_client.cookies
    assert plain.get("/api/sessions/incoming").status_code == 200


# --- Logout ------------------------------------------------------------------------------


def test_logout_invalidates_the_session_server_side_and_clears_cookies(agent, agent_client):
    old_session = agent_client.cookies[SESSION_COOKIE].value

    response = agent_client.post("/api/logout")

    assert response.status_code == 204
    assert response.cookies[SESSION_COOKIE].value == ""
    assert response.cookies[SESSION_COOKIE]["max-age"] == 0
    assert response.cookies[XSRF_COOKIE].value == ""
    assert response.cookies[XSRF_COOKIE]["max-age"] == 0
    assert not StoredSession.objects.filter(session_key=stored_key(old_session)).exists()

    replay = Client()
    replay.cookies[SESSION_COOKIE] = old_session
    error_of(replay.get("/api/sessions/incoming"), 401, "UNAUTHENTICATED")


def test_logout_when_not_signed_in_is_401(db):
    client = _fresh_client()
    error_of(client.post("/api/logout"), 401, "UNAUTHENTICATED")


# --- Unauthenticated and foreign sessions ------------------------------------------------


def test_unauthenticated_request_is_401_in_the_agent_envelope(db):
    response = Client().get("/api/sessions/incoming")
    assert response.status_code == 401
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == "UNAUTHENTICATED"


def test_unknown_session_cookie_is_401(db):
    client = Client()
    client.cookies[SESSION_COOKIE] = "x" * 32
    error_of(client.get("/api/sessions/incoming"), 401, "UNAUTHENTICATED")


def test_panel_users_session_cookie_does_not_work_on_the_agent_api(db):
    panel_user = factories.PanelUserFactory()
    client = Client()
    client.force_login(panel_user)
    assert client.cookies[SESSION_COOKIE].value
    error_of(client.get("/api/sessions/incoming"), 401, "UNAUTHENTICATED")
    error_of(client.get("/api/user"), 401, "UNAUTHENTICATED")


def test_disabled_agents_existing_session_stops_working(agent, agent_client):
    assert agent_client.get("/api/sessions/incoming").status_code == 200
    ending.agent_disable(agent=agent)
    error_of(agent_client.get("/api/sessions/incoming"), 401, "UNAUTHENTICATED")


def test_agent_demoted_to_non_agent_loses_the_agent_api(agent, agent_client):
    User.objects.filter(pk=agent.pk).update(is_agent=False)
    error_of(agent_client.get("/api/sessions/incoming"), 401, "UNAUTHENTICATED")


def test_password_change_ends_existing_sessions(agent, agent_client):
    agent.set_password("a-brand-new-password")
    agent.save()
    error_of(agent_client.get("/api/sessions/incoming"), 401, "UNAUTHENTICATED")


# --- Login throttle (5 failures a minute per email + IP) ---------------------------------


def _fail(client, email, times):
    for _ in range(times):
        error_of(_login(client, email, "wrong-password"), 401, "INVALID_CREDENTIALS")


def test_sixth_attempt_within_a_minute_is_429_with_retry_after(agent):
    client = _fresh_client()
    with frozen_clock() as clock:
        _fail(client, agent.email, settings.LOGIN_FAILURE_LIMIT)
        clock.advance(seconds=10)

        blocked = _login(client, agent.email, "wrong-password")
        error = error_of(blocked, 429, "RATE_LIMITED")
        assert set(error) == {"code", "message"}
        assert 1 <= int(blocked["Retry-After"]) <= 51

        # Even the correct password is refused while blocked.
        correct = _login(client, agent.email)
        error_of(correct, 429, "RATE_LIMITED")
        assert SESSION_COOKIE not in correct.cookies


def test_the_throttle_resets_after_the_window(agent):
    client = _fresh_client()
    with frozen_clock() as clock:
        _fail(client, agent.email, settings.LOGIN_FAILURE_LIMIT)
        error_of(_login(client, agent.email), 429, "RATE_LIMITED")

        clock.advance(seconds=settings.LOGIN_FAILURE_WINDOW + 1)

        response = _login(client, agent.email)
        assert response.status_code == 200, response.content
        assert response.cookies[SESSION_COOKIE].value


def test_four_failures_do_not_block(agent):
    client = _fresh_client()
    _fail(client, agent.email, settings.LOGIN_FAILURE_LIMIT - 1)
    assert _login(client, agent.email).status_code == 200


def test_unknown_emails_are_throttled_too(db):
    client = _fresh_client()
    _fail(client, "ghost@example.test", settings.LOGIN_FAILURE_LIMIT)
    error_of(_login(client, "ghost@example.test", "wrong-password"), 429, "RATE_LIMITED")


def test_throttle_is_per_email(agent):
    other = factories.AgentFactory(owner=agent.owner)
    client = _fresh_client()
    _fail(client, agent.email, settings.LOGIN_FAILURE_LIMIT)
    error_of(_login(client, agent.email), 429, "RATE_LIMITED")
    assert _login(_fresh_client(), other.email).status_code == 200


def test_throttle_is_per_ip(agent):
    client = _fresh_client()
    _fail(client, agent.email, settings.LOGIN_FAILURE_LIMIT)
    error_of(_login(client, agent.email), 429, "RATE_LIMITED")
    elsewhere = _login(_fresh_client(), agent.email, REMOTE_ADDR="198.51.100.7")
    assert elsewhere.status_code == 200


def test_email_case_does_not_escape_the_throttle(agent):
    client = _fresh_client()
    _fail(client, agent.email, settings.LOGIN_FAILURE_LIMIT)
    error_of(_login(client, agent.email.upper()), 429, "RATE_LIMITED")


def test_a_successful_login_resets_the_failure_count(agent):
    client = _fresh_client()
    _fail(client, agent.email, settings.LOGIN_FAILURE_LIMIT - 1)
    assert _login(client, agent.email).status_code == 200
    client = _fresh_client()
    _fail(client, agent.email, settings.LOGIN_FAILURE_LIMIT - 1)
    assert _login(client, agent.email).status_code == 200
