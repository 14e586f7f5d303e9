"""The server's pending timeout as the kiosk reads and extends it: GET /api/public/sessions/{id}/timeout
says when the sweep will abandon a waiting session (the same rule as the sweep: from the latest of
the start, the last cart change and the last extension; twice as long in accessible mode), and
POST the same path gives the whole time again from now, which the sweep respects. Active and
payment have none; another kiosk's session is 404, an ended one 409."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from apps.orders.models import Order
from apps.sessions import services as session_services
from apps.sessions.models import Session
from tests import factories
from tests.conftest import kiosk_client_for

pytestmark = pytest.mark.django_db
TIMEOUT = 180


@pytest.fixture(autouse=True)
def _timeout(settings):
    settings.SESSION_PENDING_TIMEOUT = TIMEOUT


def ago(seconds: float):
    return timezone.now() - timedelta(seconds=seconds)


def timeout_of(client, session, method="get"):
    response = getattr(client, method)(f"/api/public/sessions/{session.public_id}/timeout")
    assert response.status_code == 200, response.content
    return response.json()


def assert_about(value: int, expected: int) -> None:
    assert expected - 2 <= value <= expected, (value, expected)


def test_a_waiting_session_says_when_the_server_ends_it(kiosk_client, kiosk):
    session = factories.SessionFactory(kiosk=kiosk, created_at=ago(100))
    body = timeout_of(kiosk_client, session)
    assert body["session_id"] == session.public_id and body["status"] == "pending"
    assert_about(body["seconds_left"], TIMEOUT - 100)
    assert parse_datetime(body["timeout_at"]) == session.created_at + timedelta(seconds=TIMEOUT)


def test_accessible_mode_doubles_it_and_a_cart_change_starts_it_again(kiosk_client, kiosk):
    session = factories.SessionFactory(kiosk=kiosk, created_at=ago(100), accessible_mode=True)
    assert_about(timeout_of(kiosk_client, session)["seconds_left"], 2 * TIMEOUT - 100)
    cart = factories.OrderFactory(session=session, status="draft")
    Order.objects.filter(pk=cart.pk).update(updated_at=ago(10))
    assert_about(timeout_of(kiosk_client, session)["seconds_left"], 2 * TIMEOUT - 10)


def test_extending_gives_the_whole_time_again_and_the_sweep_keeps_it(kiosk_client, kiosk):
    session = factories.SessionFactory(kiosk=kiosk, created_at=ago(TIMEOUT - 15))
    assert_about(timeout_of(kiosk_client, session)["seconds_left"], 15)
    extended = timeout_of(kiosk_client, session, "post")
    assert_about(extended["seconds_left"], TIMEOUT)
    assert_about(timeout_of(kiosk_client, session)["seconds_left"], TIMEOUT)
    Session.objects.filter(pk=session.pk).update(created_at=ago(TIMEOUT + 60))  # long past the start
    assert session_services.sessions_abandon_stale(older_than_seconds=TIMEOUT) == 0
    assert Session.objects.get(pk=session.pk).status == "pending"
    Session.objects.filter(pk=session.pk).update(timeout_extended_at=ago(TIMEOUT + 1))  # the extension ran out
    assert timeout_of(kiosk_client, session)["seconds_left"] == 0
    assert session_services.sessions_abandon_stale(older_than_seconds=TIMEOUT) == 1
    assert Session.objects.get(pk=session.pk).status != "pending"


@pytest.mark.parametrize(
    ("created", "cart", "extended", "accessible"),
    [
        (TIMEOUT + 5, None, None, False),
        (TIMEOUT - 5, None, None, False),
        (TIMEOUT + 5, TIMEOUT - 5, None, False),
        (TIMEOUT + 5, None, TIMEOUT - 5, False),
        (3 * TIMEOUT, TIMEOUT + 5, TIMEOUT + 5, False),
        (2 * TIMEOUT - 5, None, None, True),
        (3 * TIMEOUT, None, 2 * TIMEOUT - 5, True),
        (3 * TIMEOUT, None, 2 * TIMEOUT + 5, True),
    ],
)
def test_the_deadline_said_is_the_sweeps(kiosk_client, kiosk, created, cart, extended, accessible):
    """What the kiosk is told and what the sweep does agree: swept exactly when no time is left."""
    session = factories.SessionFactory(
        kiosk=kiosk,
        created_at=ago(created),
        accessible_mode=accessible,
        timeout_extended_at=ago(extended) if extended is not None else None,
    )
    if cart is not None:
        order = factories.OrderFactory(session=session, status="draft")
        Order.objects.filter(pk=order.pk).update(updated_at=ago(cart))
    left = timeout_of(kiosk_client, session)["seconds_left"]
    swept = session_services.sessions_abandon_stale(older_than_seconds=TIMEOUT)
    assert swept == (1 if left == 0 else 0), left


@pytest.mark.parametrize("status", ["active", "payment"])
def test_no_server_timeout_runs_while_an_agent_serves_or_the_customer_pays(kiosk_client, kiosk, agent, status):
    session = factories.SessionFactory(kiosk=kiosk, status=status, agent=agent, accepted_at=timezone.now())
    for method in ("get", "post"):
        body = timeout_of(kiosk_client, session, method)
        assert body == {"session_id": session.public_id, "status": status, "timeout_at": None, "seconds_left": None}
    assert Session.objects.get(pk=session.pk).timeout_extended_at is None


def test_another_kiosks_session_is_404_and_an_ended_one_409(kiosk_client, kiosk):
    other = factories.SessionFactory(kiosk=factories.KioskFactory(business=kiosk.business))
    for method in ("get", "post"):
        response = getattr(kiosk_client, method)(f"/api/public/sessions/{other.public_id}/timeout")
        assert response.status_code == 404, response.content
        assert response.json()["error"]["code"] == "SESSION_NOT_FOUND"
    ended = factories.SessionFactory(kiosk=kiosk, status="completed", ended_at=timezone.now())
    response = kiosk_client.post(f"/api/public/sessions/{ended.public_id}/timeout")
    assert response.status_code == 409 and response.json()["error"]["code"] == "SESSION_ALREADY_ENDED"
    assert timeout_of(kiosk_client, ended)["timeout_at"] is None  # reading it stays harmless


def test_without_the_kiosks_credentials_it_is_401(client, kiosk):
    session = factories.SessionFactory(kiosk=kiosk)
    assert client.get(f"/api/public/sessions/{session.public_id}/timeout").status_code == 401
    other_kiosk = factories.KioskFactory()
    assert kiosk_client_for(other_kiosk).post(f"/api/public/sessions/{session.public_id}/timeout").status_code == 404
