"""`manage.py seed_demo` run on an empty database: with a processor configured, its text output,
its base URL and its production guard (test_seed_demo.py shares one seeded database between its
tests; these need none there)."""

import re

import pytest
from django.core.management import CommandError

from apps.accounts.models import Owner
from apps.billing.models import CardReader
from apps.demo_processor.models import DemoAccount
from tests.demo.test_seed_demo import seed, seed_json


def test_with_a_processor_configured_no_demo_account_is_made(db, processor):
    data = seed_json()
    assert data["payments"] == {"demo": False, "demo_cards": {}}
    assert not DemoAccount.objects.exists()
    assert all(kiosk["reader"] is None for owner in data["owners"] for kiosk in owner["kiosks"])
    assert not CardReader.objects.exists()


# --- Text output and production guard ----------------------------------------------------


def test_text_output_prints_the_credentials(db):
    output = seed()
    data = seed_json()
    for owner in data["owners"]:
        assert owner["email"] in output
        for agent in owner["agents"]:
            assert agent["email"] in output
    assert data["platform_agents"][0]["email"] in output
    assert data["owners"][0]["password"] in output
    assert "  2. Agent        http://127.0.0.1:8000/agent/  sign in as agent1@burgers.demo.test" in output
    # One code is said to be the kiosk app's; the others are spares.
    kiosk_app_line = next(line for line in output.splitlines() if line.startswith("  1. Kiosk app"))
    code = re.search(r"http://127\.0\.0\.1:8000/kiosk/  pair it with code (\d{6}) \(Burger Barn", kiosk_app_line)
    assert code
    assert output.count(code.group(1)) == 1
    assert all("spare pairing codes" in line for line in output.splitlines() if "pairing codes" in line)
    assert "Demo payments: no money moves." in output and "4242 4242 4242 4242" in output
    assert "Orders lists it as Confirmed (paid, sent to the kitchen)" in output
    assert "pay on the kiosk's simulated card reader: open its page (linked on http://127.0.0.1:8000/" in output
    for kiosk in (kiosk for owner in data["owners"] for kiosk in owner["kiosks"]):
        assert kiosk["reader"]["page_url"] in output


def test_the_base_url_is_where_the_steps_and_the_demo_webhook_point(db):
    output = seed("--base-url", "http://127.0.0.1:9123")
    assert "http://127.0.0.1:9123/kiosk/" in output
    assert "every event to http://127.0.0.1:9123/demo-webhooks/receiver" in output


def test_refuses_to_run_in_production_without_force(db, settings):
    settings.PRODUCTION = True
    with pytest.raises(CommandError):
        seed("--json")
    assert not Owner.objects.exists()
