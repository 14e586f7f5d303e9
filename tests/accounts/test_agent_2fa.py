"""Agent sign-in with a second factor (spec 5, decisions "2FA challenges"): an agent with a
confirmed django-otp TOTP device gets `2fa_required` + `challenge_id` and no session; POST
/api/login/2fa with the current code signs in. A challenge lives 5 minutes, works once, and is
burnt after five wrong codes; django-otp refuses a code already used."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client

from apps.accounts import services
from apps.accounts.models import LoginChallenge, StoredSession
from apps.accounts.session_store import stored_key
from apps.core.errors import DomainError
from apps.sessions import ending
from tests import factories
from tests.conftest import AgentClient
from tests.support.auth import current_code, enrol_totp, error_of, frozen_clock, wrong_code
from tests.support.races import at_once

THIRTY_DAYS = 30 * 24 * 3600
SESSION_COOKIE = "app_session"
XSRF_COOKIE = "XSRF-TOKEN"


@pytest.fixture
def device(agent):
    return enrol_totp(agent)


def _fresh_client() -> AgentClient:
    client = AgentClient()
    assert client.get("/api/csrf-cookie").status_code == 204
    return client


def _start(client: AgentClient, agent, remember: bool = False) -> str:
    """Password step of an enrolled agent; returns the challenge id."""
    response = client.post("/api/login", {"email": agent.email, "password": factories.PASSWORD, "remember": remember})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "2fa_required"
    return response.json()["challenge_id"]


def _verify(client: Client, challenge_id: str, code: str, **extra):
    return client.post("/api/login/2fa", {"challenge_id": challenge_id, "code": code}, **extra)


def _signed_in(client: Client) -> bool:
    return client.get("/api/sessions/incoming").status_code == 200


def _wait_out_otp_backoff(clock, device) -> None:
    """django-otp locks a device for 1, 2, 4, 8 ... seconds after consecutive wrong codes."""
    device.refresh_from_db()
    if device.throttling_failure_count:
        clock.advance(seconds=2 ** (device.throttling_failure_count - 1))


# --- The password step -------------------------------------------------------------------


def test_enrolled_agents_login_answers_2fa_required_with_a_challenge_and_no_session(agent, device):
    client = _fresh_client()
    response = client.post("/api/login", {"email": agent.email, "password": factories.PASSWORD, "remember": False})

    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"status", "challenge_id"}
    assert body["status"] == "2fa_required"
    assert len(body["challenge_id"]) >= 32  # not guessable
    assert SESSION_COOKIE not in response.cookies
    assert not StoredSession.objects.exists()
    error_of(client.get("/api/sessions/incoming"), 401, "UNAUTHENTICATED")


def test_the_challenge_is_stored_for_five_minutes(agent, device):
    with frozen_clock() as clock:
        challenge_id = _start(_fresh_client(), agent)
        challenge = LoginChallenge.for_id(challenge_id).get()
        assert challenge.user == agent
        assert challenge.expires_at == clock.now() + timedelta(minutes=5)
        assert challenge.used_at is None


def test_enrolled_agent_with_a_wrong_password_gets_no_challenge(agent, device):
    client = _fresh_client()
    response = client.post("/api/login", {"email": agent.email, "password": "wrong-password"})
    error_of(response, 401, "INVALID_CREDENTIALS")
    assert not LoginChallenge.objects.exists()


def test_an_unconfirmed_totp_device_does_not_ask_for_a_code(agent):
    device = enrol_totp(agent)
    device.confirmed = False
    device.save()
    response = _fresh_client().post("/api/login", {"email": agent.email, "password": factories.PASSWORD})
    assert response.json()["status"] == "ok"
    assert response.cookies[SESSION_COOKIE].value


# --- The code step -----------------------------------------------------------------------


def test_the_right_code_signs_in_with_session_cookies(agent, device):
    client = _fresh_client()
    challenge_id = _start(client, agent)
    pre_xsrf = client.cookies[XSRF_COOKIE].value

    response = _verify(client, challenge_id, current_code(device))

    assert response.status_code == 200, response.content
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
    session_cookie = response.cookies[SESSION_COOKIE]
    assert session_cookie["httponly"] is True and session_cookie["secure"] is True
    assert session_cookie["samesite"] == "Lax"
    stored = StoredSession.objects.get(session_key=stored_key(session_cookie.value))
    assert stored.get_decoded()["_auth_user_id"] == str(agent.pk)
    assert response.cookies[XSRF_COOKIE].value != pre_xsrf  # rotated at sign-in
    assert LoginChallenge.for_id(challenge_id).get().used_at is not None


def test_after_2fa_the_agent_api_works_including_mutations(agent, device):
    client = _fresh_client()
    _verify(client, _start(client, agent), current_code(device))

    assert client.get("/api/sessions/incoming").json() == {"sessions": []}
    assert client.get("/api/user").json()["id"] == agent.pk
    assert client.post("/api/agent/status", {"status": "break"}).status_code == 200
    agent.refresh_from_db()
    assert agent.agent_status == "break"


@pytest.mark.parametrize("remember,max_age", [(True, str(THIRTY_DAYS)), (False, "")])
def test_remember_from_the_password_step_carries_through_2fa(agent, device, remember, max_age):
    client = _fresh_client()
    response = _verify(client, _start(client, agent, remember=remember), current_code(device))
    assert str(response.cookies[SESSION_COOKIE]["max-age"]) == max_age


def test_a_wrong_code_is_422_invalid_2fa_code_and_signs_nobody_in(agent, device):
    client = _fresh_client()
    challenge_id = _start(client, agent)

    response = _verify(client, challenge_id, wrong_code(device))

    error = error_of(response, 422, "INVALID_2FA_CODE")
    assert set(error) == {"code", "message"}
    assert SESSION_COOKIE not in response.cookies
    assert not _signed_in(client)
    challenge = LoginChallenge.for_id(challenge_id).get()
    assert challenge.failed_attempts == 1 and challenge.used_at is None


def test_after_a_typo_the_right_code_still_signs_in(agent, device):
    client = _fresh_client()
    with frozen_clock() as clock:
        challenge_id = _start(client, agent)
        error_of(_verify(client, challenge_id, wrong_code(device)), 422, "INVALID_2FA_CODE")
        _wait_out_otp_backoff(clock, device)
        assert _verify(client, challenge_id, current_code(device)).status_code == 200
    assert _signed_in(client)


def test_a_code_sent_during_the_otp_backoff_is_429_and_not_counted_as_wrong(agent, device):
    """django-otp refuses any code for 1 s after a wrong one (2, 4, 8 s after more). A correct code
    sent then is not "incorrect": it is a 429 with Retry-After, and the challenge is not charged."""
    client = _fresh_client()
    with frozen_clock() as clock:
        challenge_id = _start(client, agent)
        error_of(_verify(client, challenge_id, wrong_code(device)), 422, "INVALID_2FA_CODE")
        clock.advance(seconds=1)
        error_of(_verify(client, challenge_id, wrong_code(device)), 422, "INVALID_2FA_CODE")  # second failure: 2 s

        blocked = _verify(client, challenge_id, current_code(device))

        error_of(blocked, 429, "RATE_LIMITED")
        assert blocked["Retry-After"] == "2"
        assert SESSION_COOKIE not in blocked.cookies
        assert LoginChallenge.for_id(challenge_id).get().failed_attempts == 2

        clock.advance(seconds=2)
        assert _verify(client, challenge_id, current_code(device)).status_code == 200


def test_a_code_from_the_previous_time_step_is_accepted(agent, device):
    """One step of clock drift between the phone and the server is tolerated."""
    client = _fresh_client()
    with frozen_clock() as clock:
        challenge_id = _start(client, agent)
        code = current_code(device)
        clock.advance(seconds=device.step)
        assert _verify(client, challenge_id, code).status_code == 200


@pytest.mark.parametrize(
    "body,field",
    [
        ({"challenge_id": "abc", "code": "12345"}, "code"),
        ({"challenge_id": "abc", "code": "12345a"}, "code"),
        ({"challenge_id": "abc"}, "code"),
        ({"code": "123456"}, "challenge_id"),
    ],
)
def test_a_malformed_2fa_body_is_422_validation_error(agent, device, body, field):
    client = _fresh_client()
    challenge_id = _start(client, agent)
    error = error_of(client.post("/api/login/2fa", body), 422, "VALIDATION_ERROR")
    assert field in error["details"]
    assert LoginChallenge.for_id(challenge_id).get().failed_attempts == 0


# --- Expiry, single use, unknown, burnt --------------------------------------------------


def test_the_challenge_still_works_at_4_minutes_59_seconds(agent, device):
    client = _fresh_client()
    with frozen_clock() as clock:
        challenge_id = _start(client, agent)
        clock.advance(minutes=4, seconds=59)
        response = _verify(client, challenge_id, current_code(device))
        assert response.status_code == 200, response.content
    assert _signed_in(client)


def test_the_challenge_expires_after_exactly_5_minutes(agent, device):
    client = _fresh_client()
    with frozen_clock() as clock:
        challenge_id = _start(client, agent)
        clock.advance(minutes=5)

        response = _verify(client, challenge_id, current_code(device))

        error_of(response, 410, "CHALLENGE_EXPIRED")
        assert SESSION_COOKIE not in response.cookies
    assert not _signed_in(client)


def test_a_used_challenge_cannot_be_replayed(agent, device):
    client = _fresh_client()
    with frozen_clock() as clock:
        challenge_id = _start(client, agent)
        assert _verify(client, challenge_id, current_code(device)).status_code == 200
        sessions_after_first = StoredSession.objects.count()
        clock.advance(seconds=device.step)  # even with a fresh, valid code

        replay = _verify(_fresh_client(), challenge_id, current_code(device))

        error_of(replay, 409, "CHALLENGE_ALREADY_USED")
        assert SESSION_COOKIE not in replay.cookies
        assert StoredSession.objects.count() == sessions_after_first


def test_an_unknown_challenge_is_404(agent, device):
    response = _verify(_fresh_client(), "no-such-challenge", current_code(device))
    error_of(response, 404, "CHALLENGE_NOT_FOUND")
    assert SESSION_COOKIE not in response.cookies


def test_five_wrong_codes_burn_the_challenge(agent, device):
    client = _fresh_client()
    with frozen_clock() as clock:
        challenge_id = _start(client, agent)
        for _ in range(settings.TWO_FACTOR_MAX_ATTEMPTS):
            _wait_out_otp_backoff(clock, device)
            error_of(_verify(client, challenge_id, wrong_code(device)), 422, "INVALID_2FA_CODE")
        _wait_out_otp_backoff(clock, device)

        response = _verify(client, challenge_id, current_code(device))

        error_of(response, 409, "CHALLENGE_ALREADY_USED")
    assert not _signed_in(client)
    challenge = LoginChallenge.for_id(challenge_id).get()
    assert challenge.failed_attempts == settings.TWO_FACTOR_MAX_ATTEMPTS


def test_four_wrong_codes_leave_the_challenge_usable(agent, device):
    client = _fresh_client()
    with frozen_clock() as clock:
        challenge_id = _start(client, agent)
        for _ in range(settings.TWO_FACTOR_MAX_ATTEMPTS - 1):
            _wait_out_otp_backoff(clock, device)
            error_of(_verify(client, challenge_id, wrong_code(device)), 422, "INVALID_2FA_CODE")
        _wait_out_otp_backoff(clock, device)
        assert _verify(client, challenge_id, current_code(device)).status_code == 200


def test_a_burnt_challenge_needs_a_new_password_step(agent, device):
    client = _fresh_client()
    with frozen_clock() as clock:
        burnt = _start(client, agent)
        for _ in range(settings.TWO_FACTOR_MAX_ATTEMPTS):
            _wait_out_otp_backoff(clock, device)
            _verify(client, burnt, wrong_code(device))
        _wait_out_otp_backoff(clock, device)
        fresh = _start(client, agent)
        assert fresh != burnt
        assert _verify(client, fresh, current_code(device)).status_code == 200


def test_a_totp_code_already_used_is_refused_on_a_new_challenge(agent, device):
    """django-otp keeps the last used time step: the same code cannot sign in twice."""
    with frozen_clock() as clock:
        first = _fresh_client()
        code = current_code(device)
        assert _verify(first, _start(first, agent), code).status_code == 200

        second = _fresh_client()
        challenge_id = _start(second, agent)
        response = _verify(second, challenge_id, code)

        error_of(response, 422, "INVALID_2FA_CODE")
        assert not _signed_in(second)
        # The next time step's code works.
        clock.advance(seconds=device.step)
        _wait_out_otp_backoff(clock, device)
        assert _verify(second, challenge_id, current_code(device)).status_code == 200


def test_agent_disabled_between_password_and_code_is_refused(agent, device):
    client = _fresh_client()
    challenge_id = _start(client, agent)
    ending.agent_disable(agent=agent)
    response = _verify(client, challenge_id, current_code(device))
    error_of(response, 403, "ACCOUNT_DISABLED")
    assert SESSION_COOKIE not in response.cookies


# --- XSRF on the code step ---------------------------------------------------------------


def test_2fa_without_the_xsrf_header_is_419_and_does_not_touch_the_challenge(agent, device):
    client = _fresh_client()
    challenge_id = _start(client, agent)
    plain = Client()
    plain.cookies = client.cookies  # the cookie, but no X-XSRF-TOKEN header

    response = plain.post(
        "/api/login/2fa", {"challenge_id": challenge_id, "code": current_code(device)}, content_type="application/json"
    )

    error = error_of(response, 419, "CSRF_MISMATCH")
    assert set(error) == {"code", "message"}
    assert SESSION_COOKIE not in response.cookies
    challenge = LoginChallenge.for_id(challenge_id).get()
    assert challenge.used_at is None and challenge.failed_attempts == 0
    assert _verify(client, challenge_id, current_code(device)).status_code == 200


def test_2fa_with_a_wrong_xsrf_header_is_419(agent, device):
    client = _fresh_client()
    challenge_id = _start(client, agent)
    response = _verify(client, challenge_id, current_code(device), headers={"X-XSRF-TOKEN": "forged"})
    error_of(response, 419, "CSRF_MISMATCH")
    assert LoginChallenge.for_id(challenge_id).get().used_at is None


# --- Concurrent verifications (PostgreSQL row locks) ------------------------------------


@pytest.mark.postgres  # row locks
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same_challenge", [True, False], ids=["one-challenge", "six-challenges"])
def test_one_code_sent_six_times_at_once_signs_in_only_once(same_challenge):
    agent = factories.AgentFactory()
    device = enrol_totp(agent)

    def new_challenge() -> str:
        result = services.agent_login(email=agent.email, password=factories.PASSWORD, remember=False, ip="127.0.0.1")
        return result.challenge.public_id

    first = new_challenge()
    challenges = [first if same_challenge else new_challenge() for _ in range(6)]
    code = current_code(device)

    def verify(challenge_id: str) -> str:
        try:
            services.two_factor_verify(challenge_id=challenge_id, code=code)
        except DomainError as exc:
            return str(exc.code)
        return "ok"

    outcomes = at_once([lambda challenge_id=challenge_id: verify(challenge_id) for challenge_id in challenges])
    assert outcomes.count("ok") == 1, outcomes
    refusals = {"CHALLENGE_ALREADY_USED"} if same_challenge else {"INVALID_2FA_CODE", "RATE_LIMITED"}
    assert set(outcomes) - {"ok"} <= refusals, outcomes
