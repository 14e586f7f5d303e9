"""Secrets at rest: the database holds no usable payment client secret, 2FA challenge id, session
key or TOTP seed (a copy of the database must not sign anyone in or charge a card); the flows that
use them work as before; the data migrations convert existing rows.

Each migration round trip renders every app's model states again and again (tens of seconds on a
loaded machine): the four data migrations share one round trip."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from apps.billing.models import Payment
from tests import factories


def stored_row_text(model, pk) -> str:
    """Every column of a row as the database holds it."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {model._meta.db_table} WHERE {model._meta.pk.column} = %s", [pk])  # noqa: S608
        return " ".join(str(value) for value in cursor.fetchone())


def migrated(targets: list, make_rows, check_after, check_reversed) -> None:
    """Migrate back to `targets` (app, migration), make rows with the historical models, migrate
    forward (every app's latest: going back also unapplies other apps' migrations that depend on
    these, routing's tables) and back again, checking each way. It runs on a scratch copy
    (`scratch_database`), dropped after, so nothing migrates forward again at the end."""
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    old_apps = executor.loader.project_state(targets).apps
    made = make_rows(old_apps)
    MigrationExecutor(connection).migrate(latest)
    check_after(made)
    MigrationExecutor(connection).migrate(targets)
    check_reversed(made)


# ----------------------------------------------------------------------------- payment client secrets


def test_the_payment_client_secret_is_stored_encrypted_and_still_reaches_the_kiosk(
    agent_client, cart_session, processor, billing, kiosk_events, kiosk_client
):
    assert agent_client.post(f"/api/sessions/{cart_session.public_id}/payment").status_code == 200
    payment = Payment.objects.get()
    secret = processor.intents[payment.intent_id]["client_secret"]
    assert secret not in stored_row_text(Payment, payment.pk)
    assert payment.client_secret == secret
    [(_, event, data)] = [sent for sent in kiosk_events if sent[1] == "PaymentRequested"]
    assert data["client_secret"] == secret
    fetched = kiosk_client.get(f"/api/public/sessions/{cart_session.public_id}/payment")
    assert fetched.status_code == 200 and fetched.json()["client_secret"] == secret


# ----------------------------------------------------------------------------- 2FA challenge ids


def test_a_2fa_challenge_id_is_stored_only_as_its_hash_and_still_signs_in(agent):
    from apps.accounts.models import LoginChallenge
    from tests.conftest import AgentClient
    from tests.support.auth import current_code, enrol_totp

    device = enrol_totp(agent)
    client = AgentClient()
    started = client.sign_in(agent.email)
    challenge_id = started.json()["challenge_id"]
    challenge = LoginChallenge.objects.get()
    assert challenge_id not in stored_row_text(LoginChallenge, challenge.pk)
    with pytest.raises(AttributeError):
        challenge.public_id  # noqa: B018 - a stored challenge cannot say its id
    verified = client.post("/api/login/2fa", {"challenge_id": challenge_id, "code": current_code(device)})
    assert verified.status_code == 200, verified.content
    # The stored hash itself is no challenge id.
    again = client.post("/api/login/2fa", {"challenge_id": challenge.id_hash, "code": current_code(device)})
    assert again.status_code == 404


# ----------------------------------------------------------------------------- session keys


def test_a_session_is_stored_under_the_hash_of_its_cookie_and_still_signs_in(agent, settings):
    from django.core.cache import cache

    from apps.accounts.models import StoredSession
    from apps.accounts.session_store import SessionStore, stored_key
    from tests.conftest import AgentClient

    assert settings.SESSION_ENGINE == "apps.accounts.session_store"
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    [stored] = StoredSession.objects.all()
    assert stored.session_key == stored_key(cookie)
    assert cookie not in stored_row_text(StoredSession, stored.session_key)
    assert cache.get(SessionStore.cache_key_prefix + cookie) is None  # the cache's keys hold no cookie either
    assert cache.get(SessionStore.cache_key_prefix + stored_key(cookie)) is not None
    assert client.get("/api/user").status_code == 200
    # The stored key is no cookie.
    forged = AgentClient()
    forged.cookies[settings.SESSION_COOKIE_NAME] = stored.session_key
    assert forged.get("/api/user").status_code == 401
    # Signing out removes it.
    assert client.post("/api/logout").status_code in (200, 204)
    assert not StoredSession.objects.exists()


def test_an_uncached_session_is_read_from_the_database(agent, settings):
    from django.core.cache import cache

    from tests.conftest import AgentClient

    client = AgentClient()
    client.sign_in(agent.email)
    cache.clear()
    assert client.get("/api/user").status_code == 200


# ----------------------------------------------------------------------------- TOTP seeds


def test_a_totp_seed_is_stored_encrypted_and_codes_still_verify(agent):
    from apps.accounts.models import SealedTotpDevice
    from tests.support.auth import current_code, enrol_totp

    device = enrol_totp(agent)
    hex_seed = SealedTotpDevice.objects.get(pk=device.pk).key
    assert len(hex_seed) == 40
    assert hex_seed not in stored_row_text(SealedTotpDevice, device.pk)
    assert device.verify_token(current_code(device))
    assert not device.verify_token(current_code(device))  # a code works once


def test_panel_enrolment_shows_the_seed_once_and_confirms_with_a_code(db, owner):
    import base64
    from urllib.parse import parse_qs, urlparse

    from django.test import Client
    from django_otp.oath import totp

    from apps.accounts.models import SealedTotpDevice

    user = factories.PanelUserFactory(owner=owner, panel_role="owner")
    client = Client()
    client.force_login(user)
    assert client.post("/panel/account/two-factor", {"action": "start"}).status_code in (200, 302)
    device = SealedTotpDevice.objects.get(user=user, confirmed=False)
    page = client.get("/panel/account/two-factor").content.decode()
    secret = base64.b32encode(device.bin_key).decode()
    assert secret in page
    assert parse_qs(urlparse(device.config_url).query)["secret"] == [secret]
    code = f"{totp(device.bin_key, device.step, device.t0, device.digits, device.drift):06d}"
    client.post("/panel/account/two-factor", {"action": "confirm", "code": code})
    assert SealedTotpDevice.objects.get(user=user).confirmed


# ----------------------------------------------------------------------------- the data migrations


@pytest.mark.django_db(transaction=True)
def test_the_data_migrations_convert_existing_rows_and_their_reverses_restore_them(scratch_database, settings):
    """Rows as they were before the data migrations (plain payment client secrets, pending 2FA
    challenges by their id, sessions under their cookie, plain TOTP seeds), then migrated: the
    client secrets and seeds are sealed, the challenge ids and cookies stored only as hashes, and
    all keep working; the reverse opens the client secrets and seeds again."""
    from datetime import timedelta

    from django.contrib.sessions.backends.db import SessionStore as DjangoDbStore
    from django.contrib.sessions.models import Session as DjangoSession
    from django.utils import timezone
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from apps.accounts.models import LoginChallenge, SealedTotpDevice, StoredSession
    from apps.accounts.session_store import SessionStore, stored_key

    order = factories.OrderFactory()
    plain_client_secret = "pi_old_secret_" + "c" * 24
    agent = factories.AgentFactory()
    old_session = DjangoDbStore()
    old_session.update({"_auth_user_id": str(agent.pk), "marker": "kept"})
    old_session.create()
    cookie = old_session.session_key
    seed = "ab" * 20

    def make(old_apps) -> dict:
        payment = old_apps.get_model("billing", "Payment").objects.create(
            order_id=order.pk,
            account_id="acct_x",
            intent_id="pi_old",
            client_secret=plain_client_secret,
            amount_cents=100,
            currency="USD",
            status="requires_payment_method",
        )
        expires = timezone.now() + settings.TWO_FACTOR_CHALLENGE_TTL
        challenge = old_apps.get_model("accounts", "LoginChallenge").objects.create(
            public_id="pending-challenge-id", user_id=agent.pk, expires_at=expires
        )
        DjangoSession.objects.create(session_key="e" * 32, session_data="x", expire_date=timezone.now() - timedelta(1))
        TOTPDevice.objects.create(user=agent, name="phone", confirmed=True, key=seed, last_t=7)
        return {"payment": payment.pk, "challenge": challenge.pk}

    def after(made: dict) -> None:
        assert plain_client_secret not in stored_row_text(Payment, made["payment"])
        assert Payment.objects.get(pk=made["payment"]).client_secret == plain_client_secret

        assert "pending-challenge-id" not in stored_row_text(LoginChallenge, made["challenge"])
        assert LoginChallenge.for_id("pending-challenge-id").get().pk == made["challenge"]

        assert not DjangoSession.objects.exists()  # no cookie value left in the old table
        assert list(StoredSession.objects.values_list("session_key", flat=True)) == [stored_key(cookie)]
        assert SessionStore(cookie).load()["marker"] == "kept"

        assert not TOTPDevice.objects.exists()
        sealed = SealedTotpDevice.objects.get(user=agent)
        assert (sealed.key, sealed.confirmed, sealed.last_t, sealed.name) == (seed, True, 7, "phone")
        assert seed not in stored_row_text(SealedTotpDevice, sealed.pk)

    def reversed_(made: dict) -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT client_secret FROM billing_payment WHERE id = %s", [made["payment"]])
            assert cursor.fetchone()[0] == plain_client_secret
        assert TOTPDevice.objects.get(user=agent).key == seed

    migrated(
        [("billing", "0003_payment_reconciled"), ("accounts", "0002_business_order_sequence")], make, after, reversed_
    )
