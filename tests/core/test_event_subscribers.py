"""The one event path (apps.core.events, config/event_subscribers.py): every domain event is in
the registry; a rolled-back change sends no real-time message and no webhook; a committed one
sends each exactly once, after commit, and drops the cached copies a racing request made."""

import importlib
import inspect
import json

import pytest
from django.core.cache import cache
from django.db import transaction

from apps.core import events
from apps.core.models import DomainEvent
from apps.kiosks import selectors as kiosk_selectors
from apps.kiosks import services as kiosk_services
from apps.routing import offers
from apps.sessions import services as session_services
from apps.sessions import status_cache
from apps.sessions.bodies import status_body
from apps.sessions.domain_events import SessionMoved
from apps.webhooks import services as webhook_services
from apps.webhooks.models import WebhookDelivery
from apps.webhooks.outbox import webhook_deliveries
from config.event_subscribers import SUBSCRIBERS
from tests import factories
from tests.support.processes import ROOT

APPS = ROOT / "apps"


def domain_event_types() -> list[type]:
    found = []
    for path in sorted(APPS.glob("*/domain_events.py")):
        module = importlib.import_module(f"apps.{path.parent.name}.domain_events")
        for name, value in vars(module).items():
            defined_here = inspect.isclass(value) and value.__module__ == module.__name__
            if defined_here and issubclass(value, events.Event) and not name.startswith("_"):
                found.append(value)
    return found


def app_event_types() -> list[type]:
    """The registry's keys, less the test-only event tests/support/webhook_events.py adds to it."""
    return [t for t in SUBSCRIBERS if t.__module__.startswith("apps.")]


def test_every_domain_event_is_in_the_registry():
    types = domain_event_types()
    assert len(types) >= 20
    assert [t.__name__ for t in types if t not in SUBSCRIBERS] == []
    assert set(app_event_types()) == set(types)  # and the registry lists nothing else


def test_every_webhook_is_a_spec_event_with_its_deliveries():
    webhook_types = [t for t in app_event_types() if t.webhook_name is not None]
    assert {t.webhook_name for t in webhook_types} == set(events.EVENT_NAMES)
    assert [t.__name__ for t in webhook_types if webhook_deliveries not in SUBSCRIBERS[t]] == []
    silent = [t for t in app_event_types() if t.webhook_name is None]
    assert [t.__name__ for t in silent if webhook_deliveries in SUBSCRIBERS[t]] == []


def test_emit_outside_a_transaction_is_refused(transactional_db):
    session = factories.SessionFactory()
    with pytest.raises(RuntimeError, match="inside the transaction"):
        events.emit(SessionMoved(session))


@pytest.fixture
def accept_scene(transactional_db, receiver):
    """A pending session with an agent free to take it, a colleague who will hear SessionClaimed, a
    webhook receiver for session.accepted, and the kiosk poll's status copy already cached."""
    business = factories.BusinessFactory()
    kiosk = factories.KioskFactory(business=business)
    agent = factories.AgentFactory(owner=business.owner)
    colleague = factories.AgentFactory(owner=business.owner)
    session = factories.SessionFactory(kiosk=kiosk)
    offers.offers_dispatch()  # both are offered it: the colleague hears SessionClaimed
    webhook_services.subscription_create(owner=business.owner, url=receiver.url, events=["session.accepted"])
    pending = status_body(session)
    status_cache.status_body(kiosk_id=kiosk.pk, public_id=session.public_id, read=lambda: pending)
    return kiosk, agent, colleague, session, pending


def cached_status(kiosk, session, fallback: dict) -> dict:
    return status_cache.status_body(kiosk_id=kiosk.pk, public_id=session.public_id, read=lambda: fallback)


def test_a_rolled_back_change_sends_no_message_and_no_webhook(accept_scene, listener, receiver):
    kiosk, agent, _, session, pending = accept_scene
    with pytest.raises(RuntimeError), transaction.atomic():
        session_services.session_accept(public_id=session.public_id, agent=agent)
        raise RuntimeError("a later step of the change fails")
    assert listener(0.5) is None
    assert receiver.received == []
    assert not DomainEvent.objects.exists() and not WebhookDelivery.objects.exists()
    assert cached_status(kiosk, session, fallback=status_body(session)) == pending  # still pending


def test_a_committed_change_sends_each_message_and_webhook_once_after_commit(
    accept_scene,
    listener,
    receiver,
):
    kiosk, agent, colleague, session, pending = accept_scene
    with transaction.atomic():
        session_services.session_accept(public_id=session.public_id, agent=agent)
        # A kiosk poll racing the change reads the row as it was and caches it...
        assert cached_status(kiosk, session, fallback=pending) == pending
        assert receiver.received == []  # nothing leaves before commit (see also the rollback test)
    # Read once (channels-redis binds an inbox to the loop that first reads it): a fourth message
    # would come within the timeout if any subscriber sent twice.
    messages = listener(timeout=1.5, count=4)
    assert sorted((m["event"], tuple(m["channels"])) for m in messages) == [
        ("QueueBoardChanged", (f"presence-owner.{session.owner_id}",)),  # the panel's Queue page
        ("SessionClaimed", (f"private-agent.{colleague.pk}",)),
        ("SessionStatusChanged", (f"private-kiosk.{kiosk.pk}",)),
    ]
    [delivery] = receiver.received
    assert json.loads(delivery.body)["event"] == "session.accepted"
    assert DomainEvent.objects.filter(name="session.accepted").count() == 1
    session.refresh_from_db()
    # ...and that copy is dropped at commit: the poll now reads the accepted session.
    assert cached_status(kiosk, session, fallback=status_body(session))["status"] == "active"


def test_kiosk_credentials_cached_while_a_rename_commits_are_dropped(transactional_db):
    kiosk = factories.KioskFactory()
    key = kiosk_selectors.credentials_cache_key(kiosk.device_id)
    with transaction.atomic():
        kiosk_services.kiosk_rename(kiosk=kiosk, name="Front door", location="Hall")
        cache.set(key, "the row as a racing request read it", timeout=60)
    assert cache.get(key) is None


def test_a_rolled_back_unpair_leaves_the_device_paired(transactional_db):
    kiosk = factories.KioskFactory()
    with pytest.raises(RuntimeError), transaction.atomic():
        kiosk_services.kiosk_unpair(kiosk=kiosk)
        raise RuntimeError("a later step fails")
    found = kiosk_selectors.kiosk_for_device_credentials(device_id=kiosk.device_id, token_hash=kiosk.token_hash)
    assert found is not None and found.kiosk.pk == kiosk.pk
