"""Owner-scoped token API authentication (spec 4.3, 5, 7, 8; DESIGN.md "Agent API tokens"):
POST /api/auth/login and /logout, bearer checks on /api/v1/*, the agent dashboard's token list
and revoke, disabling an agent, TLS, and the per-user rate limit shared by all its tokens."""

import hashlib
import re
import threading
from types import SimpleNamespace

import pytest
from django.test import Client

from apps.accounts.models import PanelRole, PersonalAccessToken
from apps.api.throttles import TokenApiThrottle
from apps.sessions import ending
from tests import factories
from tests.conftest import AgentClient
from tests.support.auth import bearer, current_code, enrol_totp, error_of, frozen_clock, wrong_code

TOKEN_RE = re.compile(r"^(\d+)\|([A-Za-z0-9_-]{40})$")
PROBE = "/api/v1/user"  # the cheapest authenticated token route


def token_login(client: Client, email: str, password: str = factories.PASSWORD, **extra) -> object:
    return client.post(
        "/api/auth/login", {"email": email, "password": password, **extra}, content_type="application/json"
    )


def issue(agent) -> str:
    """A fresh token for `agent` through the real login route."""
    response = token_login(Client(), agent.email)
    assert response.status_code == 200, response.content
    return response.json()["token"]


# ----------------------------------------------------------------------------- login


def test_login_answers_a_token_of_the_documented_shape_and_the_agent(agent):
    response = token_login(Client(), agent.email)
    assert response.status_code == 200, response.content
    body = response.json()
    assert TOKEN_RE.match(body["token"]), body["token"]
    assert body["user"] == {
        "id": agent.pk,
        "name": agent.name,
        "email": agent.email,
        "is_agent": True,
        "agent_status": "available",
        "languages": [],
        "status_reason": "",
        "status_message": "",
    }


def test_only_the_sha256_of_the_secret_is_stored(agent):
    plaintext = issue(agent)
    token_id, secret = TOKEN_RE.match(plaintext).groups()
    row = PersonalAccessToken.objects.get(pk=int(token_id))
    assert row.user_id == agent.pk and row.revoked_at is None
    assert row.token_hash == hashlib.sha256(secret.encode()).hexdigest()
    stored = " ".join(str(value) for value in PersonalAccessToken.objects.filter(pk=row.pk).values().get().values())
    assert secret not in stored and plaintext not in stored


def test_each_login_issues_a_distinct_token(agent):
    first, second = issue(agent), issue(agent)
    assert first != second and first.split("|")[0] != second.split("|")[0]
    assert PersonalAccessToken.objects.filter(user=agent).count() == 2


def test_issued_token_authenticates_on_v1(agent):
    response = Client().get(PROBE, headers=bearer(issue(agent)))
    assert response.status_code == 200, response.content
    assert response.json()["id"] == agent.pk


@pytest.mark.parametrize("role", [PanelRole.OWNER, PanelRole.MANAGER])
def test_owner_or_manager_email_is_403_panel_only_account(db, role):
    panel_user = factories.PanelUserFactory(panel_role=role)
    error_of(token_login(Client(), panel_user.email), 403, "PANEL_ONLY_ACCOUNT")
    assert not PersonalAccessToken.objects.exists()


def test_disabled_agent_is_refused_a_token(db):
    disabled = factories.AgentFactory(is_active=False)
    error_of(token_login(Client(), disabled.email), 403, "ACCOUNT_DISABLED")
    assert not PersonalAccessToken.objects.exists()


def test_wrong_password_is_401_invalid_credentials(agent):
    error_of(token_login(Client(), agent.email, "not-the-password"), 401, "INVALID_CREDENTIALS")
    assert not PersonalAccessToken.objects.exists()


def test_unknown_email_is_401_invalid_credentials(db):
    error_of(token_login(Client(), "ghost@example.test"), 401, "INVALID_CREDENTIALS")


@pytest.mark.parametrize(
    "body",
    [{}, {"email": "not-an-email", "password": "x"}, {"email": "a@example.test"}, {"password": "x"}],
)
def test_malformed_login_body_is_422(db, body):
    error = error_of(Client().post("/api/auth/login", body, content_type="application/json"), 422, "VALIDATION_ERROR")
    assert error["details"]


def test_login_needs_no_xsrf_and_sets_no_cookie(agent):
    response = token_login(Client(enforce_csrf_checks=True), agent.email)
    assert response.status_code == 200
    assert "app_session" not in response.cookies and "XSRF-TOKEN" not in response.cookies


def test_sixth_wrong_password_within_a_minute_is_429(agent):
    client = Client()
    with frozen_clock():
        for _ in range(5):
            error_of(token_login(client, agent.email, "wrong"), 401, "INVALID_CREDENTIALS")
        blocked = token_login(client, agent.email)
    error_of(blocked, 429, "RATE_LIMITED")
    assert int(blocked["Retry-After"]) >= 1


# ----------------------------------------------------------------------------- 2FA


def test_agent_with_totp_needs_a_code(agent):
    enrol_totp(agent)
    error_of(token_login(Client(), agent.email), 422, "INVALID_2FA_CODE")
    assert not PersonalAccessToken.objects.exists()


def test_agent_with_totp_and_a_wrong_code_is_refused(agent):
    device = enrol_totp(agent)
    error_of(token_login(Client(), agent.email, code=wrong_code(device)), 422, "INVALID_2FA_CODE")
    assert not PersonalAccessToken.objects.exists()


def test_agent_with_totp_and_the_current_code_gets_a_token(agent):
    device = enrol_totp(agent)
    response = token_login(Client(), agent.email, code=current_code(device))
    assert response.status_code == 200, response.content
    assert TOKEN_RE.match(response.json()["token"])


def test_a_totp_code_cannot_be_replayed_for_a_second_token(agent):
    device = enrol_totp(agent)
    code = current_code(device)
    assert token_login(Client(), agent.email, code=code).status_code == 200
    error_of(token_login(Client(), agent.email, code=code), 422, "INVALID_2FA_CODE")
    assert PersonalAccessToken.objects.filter(user=agent).count() == 1


def test_wrong_totp_codes_are_throttled_so_the_second_factor_cannot_be_guessed(agent):
    """A correct password resets the password-failure counter, so wrong codes must be limited on
    their own: within 6 wrong codes in one minute the route answers 429, and then refuses even the
    right code (no token), so the 10^6 codes cannot be walked with a stolen password."""
    device = enrol_totp(agent)
    client = Client()
    with frozen_clock():
        answers = [token_login(client, agent.email, code=wrong_code(device)).status_code for _ in range(6)]
        blocked = token_login(client, agent.email, code=current_code(device))
    assert set(answers) <= {422, 429} and answers[0] == 422 and answers[-1] == 429, answers
    error_of(blocked, 429, "RATE_LIMITED")
    assert int(blocked["Retry-After"]) >= 1
    assert not PersonalAccessToken.objects.exists()


# ----------------------------------------------------------------------------- bearer checks


def test_logout_revokes_that_token_only(agent):
    used, other = issue(agent), issue(agent)
    response = Client().post("/api/auth/logout", headers=bearer(used))
    assert response.status_code == 204
    error_of(Client().get(PROBE, headers=bearer(used)), 401, "UNAUTHENTICATED")
    assert Client().get(PROBE, headers=bearer(other)).status_code == 200
    revoked = PersonalAccessToken.objects.get(pk=int(used.split("|")[0]))
    assert revoked.revoked_at is not None
    assert PersonalAccessToken.objects.get(pk=int(other.split("|")[0])).revoked_at is None


def test_logout_with_a_revoked_token_is_401(agent):
    token = issue(agent)
    assert Client().post("/api/auth/logout", headers=bearer(token)).status_code == 204
    error_of(Client().post("/api/auth/logout", headers=bearer(token)), 401, "UNAUTHENTICATED")


def test_logout_without_a_token_is_401(db):
    error_of(Client().post("/api/auth/logout"), 401, "UNAUTHENTICATED")


@pytest.mark.parametrize("path", ["/api/v1/user", "/api/v1/orders", "/api/v1/webhooks", "/api/v1/webhooks/1"])
def test_v1_without_a_bearer_token_is_401(db, path):
    method = Client().delete if path.endswith("/1") else Client().get
    error_of(method(path), 401, "UNAUTHENTICATED")


def test_401_names_the_bearer_scheme(db):
    assert Client().get(PROBE)["WWW-Authenticate"] == "Bearer"


def test_unknown_token_is_401(agent):
    token_id, _, _ = issue(agent).partition("|")
    error_of(Client().get(PROBE, headers=bearer(f"{token_id}|{'x' * 40}")), 401, "UNAUTHENTICATED")
    error_of(Client().get(PROBE, headers=bearer(f"999999|{'x' * 40}")), 401, "UNAUTHENTICATED")


@pytest.mark.parametrize(
    "raw",
    [
        "garbage",
        "1|",
        "|" + "x" * 40,
        "abc|" + "x" * 40,
        "-1|" + "x" * 40,
        "1 |" + "x" * 40,
        "9" * 30 + "|" + "x" * 40,
        "1|" + "x" * 5000,
        "\u00b2|" + "x" * 40,  # a Unicode digit: str.isdigit() is true, int() refuses it
    ],
)
def test_malformed_token_is_401_never_500(agent, raw):
    issue(agent)
    error_of(Client().get(PROBE, headers=bearer(raw)), 401, "UNAUTHENTICATED")


@pytest.mark.parametrize("header", ["Basic dXNlcjpwYXNz", "Token abc", "Bearer", "Bearer    "])
def test_other_authorization_schemes_are_401(agent, header):
    error_of(Client().get(PROBE, headers={"Authorization": header}), 401, "UNAUTHENTICATED")


def test_token_of_an_agent_without_owner_is_403_with_the_spec_message(db):
    platform_agent = factories.AgentFactory(owner=None)
    token = issue(platform_agent)
    for path in ("/api/v1/orders", "/api/v1/webhooks", "/api/v1/user"):
        error = error_of(Client().get(path, headers=bearer(token)), 403, "FORBIDDEN")
        assert error["message"] == "Token not associated with an owner"
    error = error_of(
        Client().post(
            "/api/v1/webhooks",
            {"url": "https://example.com/h", "events": ["order.created"]},
            content_type="application/json",
            headers=bearer(token),
        ),
        403,
        "FORBIDDEN",
    )
    assert error["message"] == "Token not associated with an owner"
    # ...but it may still revoke itself.
    assert Client().post("/api/auth/logout", headers=bearer(token)).status_code == 204


def test_token_of_a_user_no_longer_an_agent_is_401(agent):
    token = issue(agent)
    agent.is_agent = False
    agent.panel_role = PanelRole.MANAGER
    agent.save()
    error_of(Client().get(PROBE, headers=bearer(token)), 401, "UNAUTHENTICATED")


def test_token_api_answers_in_the_token_envelope_without_request_id(agent):
    body = Client().get(PROBE).json()
    assert set(body["error"]) == {"code", "message"}


def test_bearer_token_does_not_work_on_the_agent_api(agent):
    error_of(Client().get("/api/user", headers=bearer(issue(agent))), 401, "UNAUTHENTICATED")


def test_agent_cookie_session_does_not_work_on_the_token_api(agent, agent_client):
    error_of(agent_client.get(PROBE), 401, "UNAUTHENTICATED")


# ----------------------------------------------------------------------------- agent dashboard


def test_agent_api_lists_live_tokens_without_secrets(agent, agent_client):
    first, second = issue(agent), issue(agent)
    Client().post("/api/auth/logout", headers=bearer(first))
    issue(factories.AgentFactory(owner=agent.owner))  # a colleague's token is not listed
    response = agent_client.get("/api/tokens")
    assert response.status_code == 200
    [listed] = response.json()["data"]
    assert listed["id"] == second.split("|")[0]
    assert set(listed) == {"id", "name", "created_at", "last_used_at"}
    assert second.split("|")[1] not in response.content.decode()


def test_agent_api_revokes_one_token(agent, agent_client):
    doomed, kept = issue(agent), issue(agent)
    response = agent_client.delete(f"/api/tokens/{doomed.split('|')[0]}")
    assert response.status_code == 204
    error_of(Client().get(PROBE, headers=bearer(doomed)), 401, "UNAUTHENTICATED")
    assert Client().get(PROBE, headers=bearer(kept)).status_code == 200
    error_of(agent_client.delete(f"/api/tokens/{doomed.split('|')[0]}"), 404, "NOT_FOUND")  # already revoked


def test_agent_api_revoke_without_the_xsrf_header_is_419(agent, agent_client):
    token = issue(agent)
    response = agent_client.delete(f"/api/tokens/{token.split('|')[0]}", headers={"X-XSRF-TOKEN": ""})
    error_of(response, 419, "CSRF_MISMATCH")
    assert Client().get(PROBE, headers=bearer(token)).status_code == 200


def test_agent_api_cannot_revoke_another_users_token(agent, agent_client):
    colleague = factories.AgentFactory(owner=agent.owner)
    token = issue(colleague)
    error_of(agent_client.delete(f"/api/tokens/{token.split('|')[0]}"), 404, "NOT_FOUND")
    error_of(agent_client.delete("/api/tokens/987654321"), 404, "NOT_FOUND")
    assert Client().get(PROBE, headers=bearer(token)).status_code == 200


def test_agent_api_token_routes_need_a_signed_in_agent(agent):
    token = issue(agent)
    error_of(Client().get("/api/tokens"), 401, "UNAUTHENTICATED")
    error_of(Client().get("/api/tokens", headers=bearer(token)), 401, "UNAUTHENTICATED")
    error_of(AgentClient().delete(f"/api/tokens/{token.split('|')[0]}"), 401, "UNAUTHENTICATED")


def test_disabling_an_agent_revokes_all_its_tokens(agent):
    tokens = [issue(agent), issue(agent)]
    colleague_token = issue(factories.AgentFactory(owner=agent.owner))
    ending.agent_disable(agent=agent)
    for token in tokens:
        error_of(Client().get(PROBE, headers=bearer(token)), 401, "UNAUTHENTICATED")
    assert not PersonalAccessToken.objects.filter(user=agent, revoked_at=None).exists()
    assert Client().get(PROBE, headers=bearer(colleague_token)).status_code == 200
    error_of(token_login(Client(), agent.email), 403, "ACCOUNT_DISABLED")


# ----------------------------------------------------------------------------- TLS


@pytest.fixture
def tls_required(settings):
    settings.REQUIRE_TLS = True
    settings.SECURE_PROXY_SSL_HEADER = None
    return settings


def test_plain_http_is_403_tls_required_when_required(agent, tls_required):
    token = issue_over_https(agent)
    error_of(Client().get(PROBE, headers=bearer(token)), 403, "TLS_REQUIRED")
    error_of(token_login(Client(), agent.email), 403, "TLS_REQUIRED")
    error_of(Client().post("/api/auth/logout", headers=bearer(token)), 403, "TLS_REQUIRED")


def test_plain_http_is_refused_before_the_token_is_even_checked(db, tls_required):
    error_of(Client().get(PROBE), 403, "TLS_REQUIRED")


def issue_over_https(agent) -> str:
    response = Client().post(
        "/api/auth/login",
        {"email": agent.email, "password": factories.PASSWORD},
        content_type="application/json",
        secure=True,
    )
    assert response.status_code == 200, response.content
    return response.json()["token"]


def test_https_is_accepted_when_tls_is_required(agent, tls_required):
    token = issue_over_https(agent)
    assert Client().get(PROBE, headers=bearer(token), secure=True).status_code == 200


def test_forwarded_proto_is_honoured_only_behind_a_trusted_proxy(agent, tls_required):
    """TRUST_PROXY sets SECURE_PROXY_SSL_HEADER (config/settings.py); without it the header is
    just a client claim."""
    token = issue_over_https(agent)
    forwarded = {**bearer(token), "X-Forwarded-Proto": "https"}
    error_of(Client().get(PROBE, headers=forwarded), 403, "TLS_REQUIRED")
    tls_required.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert Client().get(PROBE, headers=forwarded).status_code == 200
    error_of(Client().get(PROBE, headers={**bearer(token), "X-Forwarded-Proto": "http"}), 403, "TLS_REQUIRED")


def test_plain_http_is_accepted_when_tls_is_not_required(agent, settings):
    settings.REQUIRE_TLS = False
    assert Client().get(PROBE, headers=bearer(issue(agent))).status_code == 200


# ----------------------------------------------------------------------------- rate limit


def test_rate_limit_is_120_a_minute_per_user_shared_by_all_its_tokens(agent):
    first, second = issue(agent), issue(agent)
    stranger = issue(factories.AgentFactory())
    with frozen_clock() as clock:
        for n in range(120):
            response = Client().get(PROBE, headers=bearer(first if n % 2 else second))
            assert response.status_code == 200, (n, response.content)
        for token in (first, second):
            blocked = Client().get(PROBE, headers=bearer(token))
            error = error_of(blocked, 429, "RATE_LIMITED")
            assert 1 <= int(blocked["Retry-After"]) <= 60
            assert blocked["Retry-After"] in error["message"]
        # Every token route counts against the same bucket.
        error_of(Client().get("/api/v1/orders", headers=bearer(first)), 429, "RATE_LIMITED")
        # Another user has a bucket of its own.
        assert Client().get(PROBE, headers=bearer(stranger)).status_code == 200
        clock.advance(seconds=61)
        assert Client().get(PROBE, headers=bearer(first)).status_code == 200


def test_a_new_token_does_not_escape_the_users_bucket(agent):
    first = issue(agent)
    with frozen_clock():
        for _ in range(120):
            assert Client().get(PROBE, headers=bearer(first)).status_code == 200
        error_of(Client().get(PROBE, headers=bearer(issue(agent))), 429, "RATE_LIMITED")


def test_concurrent_requests_of_one_user_never_get_past_the_limit(db):
    """Eight threads (as several web processes would) share one user's bucket: exactly 120 of
    320 calls are let through. DRF's read-append-write history lost most counts here (all 320
    passed on Redis), so the limit is counted with an atomic increment."""
    allowed = []
    barrier = threading.Barrier(8)

    def hammer():
        barrier.wait()
        for _ in range(40):
            request = SimpleNamespace(user=SimpleNamespace(pk=424242))
            allowed.append(TokenApiThrottle().allow_request(request, None))

    with frozen_clock():
        threads = [threading.Thread(target=hammer) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert len(allowed) == 320 and sum(allowed) == 120
