"""Pairing-code guesses shared out over many addresses (apps/kiosks/pairing_guard.py): every
wrong code from any address counts in one service-wide window (PAIRING_FAILURE_LIMIT in
PAIRING_FAILURE_WINDOW, 30 a minute), and wrong guesses that hit an owner's used or expired
codes count for that owner (PAIRING_OWNER_FAILURE_LIMIT in PAIRING_OWNER_FAILURE_WINDOW, 5 in
15 minutes), after which that owner's codes pair nothing for the rest of the window: 429
RATE_LIMITED with Retry-After. The audit: 15 addresses guessed codes and nothing stopped them."""

import uuid

import pytest
from django.conf import settings
from django.test import Client

from apps.kiosks import services
from apps.kiosks.models import Kiosk, PairingCode, hash_pairing_code
from tests import factories
from tests.support.auth import error_of, frozen_clock
from tests.support.kiosks import pair


def guess(code: str, n: int):
    return pair(Client(REMOTE_ADDR=f"203.0.113.{n + 1}"), code, uuid.uuid4())


def never_made(n: int) -> str:
    """A code no owner made (codes are random: skip one that happens to exist)."""
    while PairingCode.objects.filter(code_hash=hash_pairing_code(f"{n:06d}")).exists():
        n += 1000
    return f"{n:06d}"


def refused(response, *, owner: bool) -> int:
    error = error_of(response, 429, "RATE_LIMITED")
    assert ("on this account" in error["message"]) is owner
    assert response["Retry-After"] in error["message"]
    return int(response["Retry-After"])


@pytest.fixture
def live_code(business) -> str:
    return services.pairing_code_create(business=business)[1]


def test_fifteen_addresses_guessing_codes_are_stopped_at_the_service_wide_limit(db, live_code):
    limit = settings.PAIRING_FAILURE_LIMIT
    assert limit == 30 and settings.PAIRING_FAILURE_WINDOW == 60
    with frozen_clock() as clock:
        answers = [guess(never_made(n), n % 15).status_code for n in range(limit)]  # two each
        assert answers == [404] * limit
        wait = refused(guess(never_made(99), 14), owner=False)
        assert 1 <= wait <= 61
        refused(guess(live_code, 16), owner=False)  # the right code waits too: nothing pairs meanwhile
        assert not Kiosk.objects.exists()
        clock.advance(seconds=wait)
        assert guess(live_code, 17).status_code == 200


def test_guesses_that_hit_an_owners_old_codes_pause_that_owners_pairing(db, business, live_code):
    limit = settings.PAIRING_OWNER_FAILURE_LIMIT
    assert limit == 5 and settings.PAIRING_OWNER_FAILURE_WINDOW == 900
    assert guess(live_code, 0).status_code == 200
    _made, expired = services.pairing_code_create(business=business)
    other_owner_code = services.pairing_code_create(business=factories.BusinessFactory())[1]
    with frozen_clock() as clock:
        clock.advance(seconds=15 * 60 + 1)  # `expired` is now
        fresh = services.pairing_code_create(business=business)[1]
        others_fresh = services.pairing_code_create(business=factories.BusinessFactory())[1]
        answers = [guess(live_code if n % 2 else expired, n).status_code for n in range(limit)]
        assert answers == [410, 409, 410, 409, 410]
        wait = refused(guess(fresh, 8), owner=True)  # the owner's live code pairs nothing now
        assert 1 <= wait <= 901
        refused(guess(expired, 9), owner=True)
        # other owners pair as before
        assert guess(others_fresh, 10).status_code == 200
        assert guess(other_owner_code, 11).status_code == 410
        clock.advance(seconds=wait)
        assert guess(services.pairing_code_create(business=business)[1], 12).status_code == 200
