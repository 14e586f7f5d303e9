"""The agent's news of the sessions it holds, over a real server and real WebSockets (docs/realtime.md):
SessionUpdated (the session's read: its cart, its payment on the kiosk's demo card reader, declined,
back on the reader, paid; the customer's accessible mode; its end) and ChatMessage (a customer's
message) on the serving agent's own channel, the moment they happen; a colleague of the same owner
and another owner's agent hear nothing, nor does the agent of its own reply."""

import asyncio

import pytest
import stripe
from django.conf import settings
from django.utils import timezone

from apps.billing.services import readers
from tests import factories
from tests.support.payments import demo_account_for
from tests.support.realtime import agent_headers, http, nothing_more, run, subscribe_via

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

ACCOUNT = "acct_demo_held_events"
APPROVED, NO_FUNDS = "4242424242424242", "4000000000009995"


async def read_until(socket, session_id: str, wanted, what: str) -> dict:
    """The SessionUpdated read of `session_id` for which `wanted(read)` holds (a change may take
    several commits: the payment, then the reader's news of it)."""
    while True:
        frame = await socket.next("SessionUpdated", timeout=10)
        read = frame["data"]
        assert read["session"]["id"] == session_id, read
        assert set(read) == {"session", "order", "payment"}, read
        if wanted(read):
            return read
        assert read["session"]["status"] not in {"completed", "abandoned", "failed"}, f"{what}: ended first: {read}"


def listeners(owner):
    """The serving agent, a colleague of the same owner and another owner's agent, with their
    sign-ins."""
    agent, colleague = factories.AgentFactory(owner=owner), factories.AgentFactory(owner=owner)
    stranger = factories.AgentFactory(owner=factories.BusinessFactory().owner)
    return [(person, agent_headers(person)) for person in (agent, colleague, stranger)]


async def subscribed(server, people) -> list:
    return [
        await subscribe_via(server, "/broadcasting/auth", headers, f"private-agent.{person.pk}")
        for person, headers in people
    ]


def test_a_held_payment_on_the_reader_reaches_its_agent_at_each_step(live_app, kiosk, owner, business):
    demo_account_for(owner, ACCOUNT)
    reader = readers.reader_register(kiosk=kiosk, registration_code="simulated-wpe", label="Till")
    item = factories.MenuItemFactory(
        category=factories.CategoryFactory(catalog=factories.CatalogFactory(business=business)), price_cents=800
    )
    people = listeners(owner)
    (agent, headers), (colleague, _), (stranger, _) = people
    session = factories.SessionFactory(kiosk=kiosk, status="active", agent=agent, accepted_at=timezone.now())
    server = live_app()
    taps = stripe.StripeClient(
        settings.PROCESSOR_SECRET_KEY, base_addresses={"api": f"{server.base_url}/demo-processor"}
    ).v1.test_helpers.terminal.readers

    def present(number: str):
        params = {"card_present": {"number": number}}
        return taps.present_payment_method(reader.reader_id, params=params, options={"stripe_account": ACCOUNT})

    async def scenario():
        on_agent, on_colleague, on_stranger = await subscribed(server, people)
        sid = session.public_id

        cart = {"session_id": sid, "lines": [{"menu_item_id": str(item.pk), "quantity": 1}]}
        status, order = await asyncio.to_thread(http, server, "POST", "/api/orders", cart, headers)
        assert status == 200, order
        read = await read_until(on_agent, sid, lambda r: r["order"] is not None, "the cart")
        assert [line["quantity"] for line in read["order"]["lines"]] == [1]

        status, body = await asyncio.to_thread(http, server, "POST", f"/api/sessions/{sid}/payment", {}, headers)
        assert status == 200, body

        def on_reader(read, action_status):
            payment = read["payment"]
            return (
                read["session"]["status"] == "payment"
                and payment is not None
                and payment["method"] == "card_present"
                and payment["reader"]["action_status"] == action_status
            )

        read = await read_until(on_agent, sid, lambda r: on_reader(r, "in_progress"), "waiting on the reader")
        assert read["payment"]["reader"]["label"] == "Till"

        declined = await asyncio.to_thread(present, NO_FUNDS)
        assert declined.action.status == "failed"
        read = await read_until(on_agent, sid, lambda r: r["payment"]["status"] == "failed", "the decline")
        assert read["payment"]["failure_code"] == "insufficient_funds"
        # The same payment goes back to the reader (a job after the decline): heard, not polled.
        await read_until(on_agent, sid, lambda r: on_reader(r, "in_progress"), "back on the reader")

        approved = await asyncio.to_thread(present, APPROVED)
        assert approved.action.status == "succeeded"
        read = await read_until(on_agent, sid, lambda r: r["session"]["status"] == "completed", "paid")
        assert read["order"]["paid"] is True

        await nothing_more(
            server, {on_colleague: f"private-agent.{colleague.pk}", on_stranger: f"private-agent.{stranger.pk}"}
        )

    run(scenario())


def test_a_held_chat_customer_writes_turns_accessible_mode_on_and_leaves(live_app, kiosk, owner):
    people = listeners(owner)
    (agent, headers), (colleague, _), (stranger, _) = people
    session = factories.SessionFactory(
        kiosk=kiosk, status="active", agent=agent, accepted_at=timezone.now(), medium="chat"
    )
    device = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
    server = live_app()

    async def scenario():
        on_agent, on_colleague, on_stranger = await subscribed(server, people)
        heard = {
            on_agent: f"private-agent.{agent.pk}",
            on_colleague: f"private-agent.{colleague.pk}",
            on_stranger: f"private-agent.{stranger.pk}",
        }
        sid = session.public_id
        kiosk_path = f"/api/public/sessions/{sid}"

        # The customer writes: the message itself, once, on the agent's channel.
        status, wrote = await asyncio.to_thread(
            http, server, "POST", f"{kiosk_path}/chat", {"text": "Is there a veggie burger?"}, device
        )
        assert status == 201, wrote
        message = (await on_agent.next("ChatMessage"))["data"]
        assert message == wrote
        assert (message["session_id"], message["sender"]) == (sid, "kiosk")
        await nothing_more(server, heard)

        # The agent's own reply: it knows it (the answer to its POST), nothing is sent to it.
        status, replied = await asyncio.to_thread(
            http, server, "POST", f"/api/sessions/{sid}/chat", {"text": "Not today."}, headers
        )
        assert status == 201, replied
        await nothing_more(server, heard)

        # Accessible mode on, then off: the read says each at once.
        for on in (True, False):
            status, body = await asyncio.to_thread(
                http, server, "POST", f"{kiosk_path}/accessible", {"accessible_mode": on}, device
            )
            assert status == 200, body
            read = (await on_agent.next("SessionUpdated"))["data"]
            assert (read["session"]["id"], read["session"]["accessible_mode"]) == (sid, on)
            await nothing_more(server, heard)

        # The customer leaves: the read says how it ended, once.
        status, body = await asyncio.to_thread(http, server, "POST", f"{kiosk_path}/cancel", {}, device)
        assert status == 200, body
        read = (await on_agent.next("SessionUpdated"))["data"]
        assert read["session"]["status"] in {"abandoned", "completed"}, read
        await nothing_more(server, heard)

    run(scenario())
