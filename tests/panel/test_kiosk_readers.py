"""The Kiosks page's card readers: an owner or a manager registers a kiosk's reader, replaces it
and removes it through the same service as the owner API (the real `stripe` library against the
demo processor); the page shows the reader's status, last action and error; a refused code and a
business not onboarded are said as errors; another owner's kiosk is 404."""

import pytest

from apps.billing.models import CardReader
from apps.billing.services import readers
from apps.billing.terminal import ReaderState
from apps.demo_processor import services as demo_processor
from apps.demo_processor.models import DemoReader
from tests import factories
from tests.panel.support import messages_of

ACCOUNT = "acct_demo_panel_readers"


@pytest.fixture
def demo_billing(owner):
    demo_processor.account_open(ACCOUNT)
    return factories.OwnerBillingFactory(owner=owner, account_id=ACCOUNT, charges_enabled=True, payouts_enabled=True)


def register(client, kiosk, code="simulated-wpe", label="Front counter"):
    return client.post(f"/panel/kiosks/{kiosk.pk}/reader", {"registration_code": code, "label": label}, follow=True)


def reader_cell(response, kiosk) -> str:
    page = response.content.decode()
    row = page[page.index(f'data-kiosk-id="{kiosk.pk}"') :]
    return row[row.index('class="kiosk-reader"') : row.index("</td>", row.index('class="kiosk-reader"'))]


@pytest.mark.parametrize("client_name", ["owner_client", "manager_client"])
def test_register_replace_and_remove_a_reader(request, client_name, kiosk, demo_billing):
    client = request.getfixturevalue(client_name)
    response = register(client, kiosk)
    assert response.status_code == 200
    assert "Card reader Front counter registered" in messages_of(response)
    first = CardReader.objects.get(kiosk=kiosk)
    assert first.label == "Front counter" and first.account_id == ACCOUNT
    assert DemoReader.objects.filter(reader_id=first.reader_id).exists()
    cell = reader_cell(client.get("/panel/kiosks"), kiosk)
    assert "Front counter" in cell and first.reader_id in cell and ">online<" in cell and "Replace reader" in cell
    assert f'href="/demo-processor/readers/{first.reader_id}/"' in cell  # the demo processor's reader page

    replaced = register(client, kiosk, code="simulated-s700", label="")
    assert replaced.status_code == 200
    second = CardReader.objects.get(kiosk=kiosk)
    assert second.reader_id != first.reader_id and second.label == kiosk.name[:100]
    assert second.device_type == "simulated_stripe_s700"
    assert not DemoReader.objects.filter(reader_id=first.reader_id).exists()

    removed = client.post(f"/panel/kiosks/{kiosk.pk}/reader/remove", follow=True)
    assert removed.status_code == 200 and "has no card reader now" in messages_of(removed)
    assert not CardReader.objects.exists() and not DemoReader.objects.filter(reader_id=second.reader_id).exists()
    assert "Register a reader" in reader_cell(removed, kiosk)
    again = client.post(f"/panel/kiosks/{kiosk.pk}/reader/remove", follow=True)
    assert again.status_code == 200 and "This kiosk has no card reader." in messages_of(again)


def test_the_page_shows_the_readers_status_last_action_and_error(owner_client, kiosk, demo_billing):
    register(owner_client, kiosk)
    reader = CardReader.objects.get(kiosk=kiosk)
    state: ReaderState = {
        "id": reader.reader_id,
        "label": reader.label,
        "device_type": reader.device_type,
        "status": "offline",
        "action": {
            "type": "process_payment_intent",
            "status": "failed",
            "payment_intent": "pi_demo_x",
            "failure_code": "card_declined",
            "failure_message": "Your card was declined.",
        },
    }
    readers.record_by_id(reader.reader_id, state)
    cell = reader_cell(owner_client.get("/panel/kiosks"), kiosk)
    assert ">offline<" in cell
    assert "Last action: Take a payment, failed" in cell
    assert "Error: Your card was declined. (card_declined)" in cell


def test_a_code_the_processor_refuses_is_said_and_nothing_is_registered(owner_client, kiosk, demo_billing):
    response = register(owner_client, kiosk, code="purple-cat-42")
    assert response.status_code == 200
    assert "registration_code" in messages_of(response)
    assert not CardReader.objects.exists()
    empty = register(owner_client, kiosk, code="")
    assert "Enter the reader's registration code" in messages_of(empty)
    assert not CardReader.objects.exists()


def test_before_onboarding_the_owner_is_told(owner_client, kiosk, owner):
    factories.OwnerBillingFactory(owner=owner, account_id="", charges_enabled=False)
    response = register(owner_client, kiosk)
    assert "cannot take card payments yet" in messages_of(response)
    assert not CardReader.objects.exists()


def test_another_owners_kiosk_is_404(owner_client, other_business, demo_billing):
    other_kiosk = factories.KioskFactory(business=other_business)
    assert (
        owner_client.post(f"/panel/kiosks/{other_kiosk.pk}/reader", {"registration_code": "simulated-wpe"}).status_code
        == 404
    )
    assert owner_client.post(f"/panel/kiosks/{other_kiosk.pk}/reader/remove").status_code == 404
    assert not CardReader.objects.exists()
