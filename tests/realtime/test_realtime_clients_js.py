"""Unmodified pusher-js and laravel-echo from npm (tests/realtime_js/package-lock.json), run in
Node against a real daphne: an agent's Echo hears SessionIncoming when a kiosk starts a session
over REST, an owner's Echo sees kiosk presence joins and leaves, a forged signature is refused.

Needs `node`; skipped only when it is missing. `make test` installs tests/realtime_js with
`npm ci`; when node_modules is missing the fixture runs `npm ci` itself."""

import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.test import Client
from django.utils.crypto import get_random_string

from tests import factories
from tests.support.realtime import run_scenario

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def kiosk_spec(kiosk) -> dict:
    return {"id": kiosk.pk, "device_id": str(kiosk.device_id), "token": kiosk.raw_token}


def test_echo_agent_hears_session_incoming_when_a_kiosk_starts_a_session(node, live_app, kiosk, agent, owner):
    other = factories.AgentFactory(owner=owner)
    # The suite hashes with MD5 for speed; the server process only knows the real hashers.
    agent.password = PBKDF2PasswordHasher().encode(factories.PASSWORD, PBKDF2PasswordHasher().salt())
    agent.save(update_fields=["password"])
    server = live_app()
    seen = run_scenario(
        node,
        server,
        "agent-incoming",
        agent={"id": agent.pk, "email": agent.email, "password": factories.PASSWORD},
        other_agent_id=other.pk,
        kiosk=kiosk_spec(kiosk),
    )
    session = seen["incoming"]["session"]
    assert session["id"] == seen["started"]["session_id"]
    assert session["kiosk"] == {"id": str(kiosk.pk), "name": kiosk.name, "location": kiosk.location}
    assert session["business"] == {"id": str(kiosk.business_id), "name": kiosk.business.name}
    status = seen["kiosk_status"]
    assert (status["session_id"], status["status"], status["agent"]) == (session["id"], "pending", None)
    assert seen["refused"]["type"] == "AuthError" and "403" in seen["refused"]["error"]


def test_echo_owner_sees_kiosks_join_and_leave_its_presence_channel(node, live_app, kiosk, owner):
    panel_user = factories.PanelUserFactory(owner=owner)
    browser = Client()
    browser.force_login(panel_user)  # there is no panel yet: a Django session login is the credential
    csrf_token = get_random_string(32)
    cookie = (
        f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}; csrftoken={csrf_token}"
    )
    server = live_app()
    seen = run_scenario(
        node,
        server,
        "presence",
        owner_id=owner.pk,
        owner={"cookie": cookie, "csrf_token": csrf_token},
        kiosk=kiosk_spec(kiosk),
    )
    member = {"id": str(kiosk.pk), "name": kiosk.name, "location": kiosk.location}
    assert seen["here"] == [{"id": str(panel_user.pk), "name": panel_user.name, "panel_role": "owner"}]
    assert seen["joining"] == member
    assert seen["leaving"] == member


def test_a_forged_signature_is_refused_and_echo_reports_it(node, live_app, agent):
    server = live_app()
    seen = run_scenario(node, server, "forged", agent_id=agent.pk)
    assert seen["error"]["type"] == "AuthError"
    assert seen["error"]["status"] == 401


def test_pusher_js_member_ids_keep_the_type_they_were_signed_with(node, live_app):
    """An app that signs numeric user ids (Laravel's default) gets numbers back: `member.id === 2`."""
    seen = run_scenario(node, live_app(), "typed-presence", secret=settings.REALTIME_APP_SECRET)
    assert seen == {
        "me": 2,
        "other_knows_first": True,
        "added": 3,
        "removed": 3,
        "me_is_2": True,
        "added_is_3": True,
        "removed_is_3": True,
    }
