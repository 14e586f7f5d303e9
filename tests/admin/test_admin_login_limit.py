"""/admin/login/ has the sign-in limits of every other route (before them, 24 wrong passwords
were answered 200 and the 25th, right one got in): LOGIN_FAILURE_LIMIT failures per email + address,
LOGIN_IP_FAILURE_LIMIT per address, counted with the other routes, then 429 with Retry-After
before any password is hashed."""

import pytest
from django.conf import settings
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client

from apps.accounts.admin_site import LimitedAdminSite
from tests import factories
from tests.support.auth import frozen_clock

ATTACKER = "198.51.100.70"


@pytest.fixture
def superuser(db):
    return factories.UserFactory(is_staff=True, is_superuser=True)


def admin_login(email: str, password: str = "wrong-password", ip: str = ATTACKER):
    client = Client(REMOTE_ADDR=ip)
    response = client.post("/admin/login/?next=/admin/", {"username": email, "password": password})
    response.client_for_test = client
    return response


def refused(response) -> int:
    assert response.status_code == 429, response.status_code
    assert b"Too many failed sign-in attempts" in response.content  # said on the page
    return int(response["Retry-After"])


def test_the_admin_site_is_the_limited_one():
    from django.contrib import admin

    assert isinstance(admin.site, LimitedAdminSite)


def test_wrong_passwords_for_one_account_are_refused_after_the_limit_even_the_right_one(superuser):
    limit = settings.LOGIN_FAILURE_LIMIT
    with frozen_clock():
        assert [admin_login(superuser.email).status_code for _ in range(limit)] == [200] * limit
        wait = refused(admin_login(superuser.email, factories.PASSWORD))
        assert 1 <= wait <= settings.LOGIN_FAILURE_WINDOW + 1
        # Another address may still sign in to the account.
        assert admin_login(superuser.email, factories.PASSWORD, ip="198.51.100.71").status_code == 302


def test_one_address_spraying_many_emails_is_refused(db, superuser):
    with frozen_clock():
        for n in range(settings.LOGIN_IP_FAILURE_LIMIT):
            assert admin_login(f"victim{n}@example.test").status_code == 200
        refused(admin_login(superuser.email, factories.PASSWORD))


def test_failures_on_the_panel_count_on_the_admin_too(superuser):
    with frozen_clock():
        for _ in range(settings.LOGIN_FAILURE_LIMIT):
            panel = Client(REMOTE_ADDR=ATTACKER).post("/panel/login", {"email": superuser.email, "password": "x"})
            assert panel.status_code == 200
        refused(admin_login(superuser.email, factories.PASSWORD))


def test_a_refused_attempt_hashes_no_password(superuser, monkeypatch):
    hashed = []
    monkeypatch.setattr(MD5PasswordHasher, "verify", lambda self, password, encoded: hashed.append(1) or False)
    with frozen_clock():
        for _ in range(settings.LOGIN_FAILURE_LIMIT):
            admin_login(superuser.email)
        before = len(hashed)
        refused(admin_login(superuser.email))
    assert before == settings.LOGIN_FAILURE_LIMIT and len(hashed) == before


def test_a_right_password_within_the_limit_signs_in_and_clears_the_accounts_count(superuser):
    with frozen_clock():
        for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
            admin_login(superuser.email)
        signed_in = admin_login(superuser.email, factories.PASSWORD)
        assert signed_in.status_code == 302 and signed_in["Location"] == "/admin/"
        assert signed_in.client_for_test.get("/admin/").status_code == 200
        for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):  # counting from zero again
            assert admin_login(superuser.email).status_code == 200


def test_a_non_staff_account_counts_as_a_failure(db):
    user = factories.PanelUserFactory()
    with frozen_clock():
        for _ in range(settings.LOGIN_FAILURE_LIMIT):
            assert admin_login(user.email, factories.PASSWORD).status_code == 200
        refused(admin_login(user.email, factories.PASSWORD))
