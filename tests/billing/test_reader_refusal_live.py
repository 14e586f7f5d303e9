"""The reader's refusal of the agent's send to payment reaches the kiosk's real WebSocket over a
real server (the demo processor's reader unplugged): ReaderRefused with the status body's
`reader_refusal`, which the status poll says too; the retry once the reader is back moves the
session to payment, and its SessionStatusChanged says the refusal is over. Another owner's kiosk
hears nothing."""

import asyncio

import pytest

from apps.billing.services import readers
from apps.demo_processor import terminal as demo_terminal
from apps.orders import services as order_services
from apps.sessions import services as session_services
from tests import factories
from tests.support.payments import demo_account_for
from tests.support.realtime import agent_headers, http, nothing_more, run, subscribe_via

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]
ACCOUNT = "acct_demo_reader_refusal"


def device(kiosk) -> dict:
    return {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}


def test_the_kiosk_hears_the_refusal_and_its_end(live_app, kiosk, owner, business, agent, other_business):
    demo_account_for(owner, ACCOUNT)
    reader = readers.reader_register(kiosk=kiosk, registration_code="simulated-wpe", label="Counter")
    demo_terminal.reader_set_status(reader.reader_id, online=False)
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    burger = factories.MenuItemFactory(category=category, name="Burger", price_cents=1000)
    session = session_services.session_accept(public_id=factories.SessionFactory(kiosk=kiosk).public_id, agent=agent)
    line = {"menu_item_id": str(burger.pk), "quantity": 1, "modifier_option_ids": [], "notes": ""}
    order_services.cart_replace(agent=agent, session_public_id=session.public_id, lines=[line])
    stranger = factories.KioskFactory(business=other_business)
    headers = agent_headers(agent)
    server = live_app()
    send = f"/api/sessions/{session.public_id}/payment"
    status_path = f"/api/public/sessions/{session.public_id}/status"

    auth = "/api/public/broadcasting/auth"

    async def refused():
        on_kiosk = await subscribe_via(server, auth, device(kiosk), f"private-kiosk.{kiosk.pk}")
        on_stranger = await subscribe_via(server, auth, device(stranger), f"private-kiosk.{stranger.pk}")
        status, body = await asyncio.to_thread(http, server, "POST", send, None, headers)
        assert (status, body["error"]["code"]) == (409, "READER_OFFLINE"), body
        said = (await on_kiosk.next("ReaderRefused"))["data"]
        assert said["session_id"] == session.public_id
        assert said["reader_refusal"]["reason"] == "offline"
        status, polled = await asyncio.to_thread(http, server, "GET", status_path, None, device(kiosk))
        assert status == 200 and polled["reader_refusal"] == said["reader_refusal"]  # what a reload reads
        await nothing_more(server, {on_stranger: f"private-kiosk.{stranger.pk}"})

    async def sent_again():
        on_kiosk = await subscribe_via(server, auth, device(kiosk), f"private-kiosk.{kiosk.pk}")
        status, body = await asyncio.to_thread(http, server, "POST", send, None, headers)
        assert status == 200, body
        moved = (await on_kiosk.next("SessionStatusChanged"))["data"]
        assert (moved["status"], moved["reader_refusal"]) == ("payment", None)

    run(refused())
    demo_terminal.reader_set_status(reader.reader_id, online=True)  # the database is not the event loop's
    run(sent_again())
