"""Webhook signing secrets at rest: only a Fernet token under WEBHOOK_SECRET_KEYS is stored;
deliveries are still signed with the plain secret; a secret written under an old key signs while
that key is still listed; `rotate_webhook_secrets` re-encrypts every secret with the first key; the
data migration encrypts existing plain secrets and decrypts them when reversed."""

import hashlib
import hmac

import pytest
from cryptography.fernet import Fernet
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from standardwebhooks.webhooks import Webhook

from apps.accounts.services import access_token_issue
from apps.core import secret_box
from apps.webhooks import services, signing
from apps.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookSubscription
from apps.webhooks.tasks import drain_subscription
from tests.support.auth import bearer
from tests.support.webhook_events import emit_webhook

OLD_KEY = Fernet.generate_key().decode()
NEW_KEY = Fernet.generate_key().decode()
PAYLOAD = {"kiosk_id": 7, "kiosk_name": "Front", "location": "Door", "offline_at": "2026-01-01T00:00:00Z"}


def stored_row_text(pk: int) -> str:
    """Every column of the subscription's row as the database holds it."""
    table = WebhookSubscription._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {table} WHERE id = %s", [pk])  # noqa: S608 - no user input
        return " ".join(str(value) for value in cursor.fetchone())


def emit(owner, capture):
    with capture(execute=True), transaction.atomic():
        emit_webhook("kiosk.offline", PAYLOAD, owner_id=owner.pk)


def assert_signed_with(request, secret: str) -> None:
    expected = hmac.new(secret.encode(), request.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(request.headers["X-Service-Signature"], expected)
    Webhook(signing.standard_webhooks_key(secret)).verify(request.body, request.headers)


def test_the_api_returns_the_secret_once_and_the_database_holds_only_its_token(agent, owner, settings):
    _, token = access_token_issue(user=agent)
    response = Client(headers=bearer(token)).post(
        "/api/v1/webhooks",
        {"url": "https://93.184.216.34/hooks", "events": ["order.created"]},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    secret, pk = response.json()["secret"], response.json()["data"]["id"]
    row = stored_row_text(pk)
    assert secret not in row and secret.encode().hex() not in row
    stored = WebhookSubscription.objects.get(pk=pk)
    assert stored.encrypted_secret.startswith("gAAAAA")  # a Fernet token (version byte 0x80)
    assert Fernet(settings.WEBHOOK_SECRET_KEYS[0]).decrypt(stored.encrypted_secret.encode()).decode() == secret
    listed = Client(headers=bearer(token)).get("/api/v1/webhooks").json()["data"]
    assert secret not in str(listed) and stored.encrypted_secret not in str(listed)


def test_a_delivery_is_signed_with_the_plain_secret(owner, receiver, django_capture_on_commit_callbacks):
    subscription, secret = services.subscription_create(owner=owner, url=receiver.url, events=["kiosk.offline"])
    assert secret not in stored_row_text(subscription.pk)
    emit(owner, django_capture_on_commit_callbacks)
    [request] = receiver.received
    assert_signed_with(request, secret)


def test_a_secret_under_an_old_key_signs_while_listed_and_rotation_moves_it_to_the_new_key(
    owner, receiver, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_SECRET_KEYS = [OLD_KEY]
    subscription, secret = services.subscription_create(owner=owner, url=receiver.url, events=["kiosk.offline"])
    written_under_old = WebhookSubscription.objects.get(pk=subscription.pk).encrypted_secret

    settings.WEBHOOK_SECRET_KEYS = [NEW_KEY, OLD_KEY]  # the new key first, the old still read
    emit(owner, django_capture_on_commit_callbacks)
    assert_signed_with(receiver.received[-1], secret)
    assert not secret_box.is_current(written_under_old)

    call_command("rotate_webhook_secrets")
    rotated = WebhookSubscription.objects.get(pk=subscription.pk).encrypted_secret
    assert rotated != written_under_old and secret not in stored_row_text(subscription.pk)
    assert Fernet(NEW_KEY).decrypt(rotated.encode()).decode() == secret

    settings.WEBHOOK_SECRET_KEYS = [NEW_KEY]  # the old key dropped after rotation
    emit(owner, django_capture_on_commit_callbacks)
    assert len(receiver.received) == 2
    assert_signed_with(receiver.received[-1], secret)


def test_rotation_leaves_current_secrets_alone_and_names_the_ones_no_key_opens(owner, settings, capsys):
    settings.WEBHOOK_SECRET_KEYS = [OLD_KEY]
    lost, _ = services.subscription_create(owner=owner, url="https://93.184.216.34/a", events=["kiosk.offline"])
    settings.WEBHOOK_SECRET_KEYS = [NEW_KEY]
    current, _ = services.subscription_create(owner=owner, url="https://93.184.216.34/b", events=["kiosk.offline"])
    token = WebhookSubscription.objects.get(pk=current.pk).encrypted_secret
    with pytest.raises(CommandError, match=f"subscription\\(s\\) {lost.pk}:"):
        call_command("rotate_webhook_secrets")
    assert "0 re-encrypted with the first key, 1 already were." in capsys.readouterr().out
    assert WebhookSubscription.objects.get(pk=current.pk).encrypted_secret == token


def test_a_secret_no_listed_key_opens_is_not_sent_and_its_deliveries_wait(
    owner, receiver, settings, django_capture_on_commit_callbacks, monkeypatch
):
    settings.WEBHOOK_SECRET_KEYS = [OLD_KEY]
    subscription, _ = services.subscription_create(owner=owner, url=receiver.url, events=["kiosk.offline"])
    monkeypatch.setattr("apps.webhooks.outbox.jobs.enqueue_on_commit", lambda *args: None)
    emit(owner, django_capture_on_commit_callbacks)
    settings.WEBHOOK_SECRET_KEYS = [NEW_KEY]  # the old key dropped before rotating: an operator error
    with pytest.raises(secret_box.SecretUnreadable):
        drain_subscription.apply(args=[subscription.pk], throw=True)
    assert receiver.received == [] and not WebhookAttempt.objects.exists()
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.lease_until) == ("pending", 0, None)
    assert WebhookSubscription.objects.get(pk=subscription.pk).failure_count == 0  # not the receiver's fault


def test_malformed_keys_fail_the_system_check(settings):
    from apps.webhooks.apps import _secret_keys_check

    settings.WEBHOOK_SECRET_KEYS = ["not-a-fernet-key"]
    [error] = _secret_keys_check(None)
    assert error.id == "webhooks.E001" and "Fernet" in error.msg
    settings.WEBHOOK_SECRET_KEYS = [NEW_KEY, OLD_KEY]
    assert _secret_keys_check(None) == []


@pytest.mark.django_db(transaction=True)
def test_the_data_migration_encrypts_plain_secrets_and_its_reverse_decrypts_them(scratch_database, owner):
    plain = "ab" * 32
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("webhooks")
    # On a scratch copy (`scratch_database`), dropped after: nothing migrates forward at the end.
    executor.migrate([("webhooks", "0001_initial")])
    before = executor.loader.project_state([("webhooks", "0001_initial")]).apps
    old_model = before.get_model("webhooks", "WebhookSubscription")
    pk = old_model.objects.create(owner_id=owner.pk, url="https://93.184.216.34/h", events=[], secret=plain).pk

    MigrationExecutor(connection).migrate(latest)
    assert plain not in stored_row_text(pk)
    assert WebhookSubscription.objects.get(pk=pk).signing_secret() == plain

    MigrationExecutor(connection).migrate([("webhooks", "0001_initial")])
    with connection.cursor() as cursor:
        cursor.execute("SELECT secret FROM webhooks_webhooksubscription WHERE id = %s", [pk])
        assert cursor.fetchone()[0] == plain
