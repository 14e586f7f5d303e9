"""One agent serving three customers at once (capacity 3), in the dashboard against the real
server, in one journey: a video customer sent to payment on the kiosk's demo card reader becomes a
card ("Waiting for the card on the reader") when the next video customer is accepted into the
conversation; a text-chat customer's offer arrives mid-conversation, rings, and is accepted by its
key (Alt+A) while the focus stays in the conversation; the chat customer's message shows on its card
as unread and is answered from the card; both customers turn accessible mode on, said at once on the
card and in the conversation; the card opened (Alt+J) edits the chat customer's cart with the
conversation's cart editor, and the paying customer's says its cart is locked; the card on the
reader is declined, then paid; the chat customer leaves. The dashboard's fallback read is set to
ten minutes: every card that changes was told so on the agent's channel (SessionUpdated,
ChatMessage), not read. A reload brings every held session back from the server."""

import pytest
import stripe
from django.conf import settings
from playwright.sync_api import expect

from apps.billing.services import readers
from apps.demo_processor import services as demo_processor
from apps.demo_processor.models import DemoReader
from apps.routing.services import owner_capacity_set
from tests import factories
from tests.agent_dashboard.conftest import assert_no_console_errors, card, sign_in_and_go_available
from tests.support.payments import ACCOUNT
from tests.support.processes import wait_until

pytestmark = pytest.mark.live
APPROVED, NO_FUNDS = "4242424242424242", "4000000000009995"


def held_card(page, session_id: str):
    return page.locator(f"#held-cards li[data-session-id='{session_id}']")


def reader_holds_a_payment(reader_id: str) -> bool:
    action = DemoReader.objects.get(reader_id=reader_id).action or {}
    return action.get("status") == "in_progress"


def test_an_agent_serves_a_conversation_a_payment_and_a_chat_at_once(world, serve, open_dashboard):
    [agent] = world.agents
    owner_capacity_set(owner_id=world.business.owner_id, capacity=3)
    front = world.kiosk
    side = factories.KioskFactory(business=world.business, name="Side counter", location="Patio")
    window = factories.KioskFactory(business=world.business, name="Drive window", location="Car park")
    factories.MenuItemFactory(category=world.items["fries"].category, name="Cola", price_cents=250)
    demo_processor.account_open(ACCOUNT)  # the owner's account, on the demo processor (as `make run`)
    reader = readers.reader_register(kiosk=front, registration_code="simulated-wpe", label="Till")
    # No timed read while the channel is live: a card that changes was told so.
    server = serve(TASK_MODE="thread", AGENT_FALLBACK_POLL_SECONDS="600")
    taps = stripe.StripeClient(
        settings.PROCESSOR_SECRET_KEY, base_addresses={"api": f"{server.url}/demo-processor"}
    ).v1.test_helpers.terminal.readers

    def present(number: str):
        params = {"card_present": {"number": number}}
        return taps.present_payment_method(reader.reader_id, params=params, options={"stripe_account": ACCOUNT})

    page = open_dashboard(server)
    sign_in_and_go_available(page, agent)
    expect(page.locator("#live-state")).to_have_attribute("data-state", "connected")
    expect(page.locator("#keys-hint")).to_contain_text("Alt+A accepts an offer")

    # The first video customer: served, then sent to payment on the kiosk's reader (the video seat
    # frees).
    paying_id = server.start_session(front)
    card(page, paying_id).locator("button.accept").click()
    expect(page.locator("#session-title")).to_have_text("Session with Front counter")
    page.locator("button.menu-item[data-item-id]", has_text="Fries").click()
    expect(page.locator("#cart-lines li")).to_have_count(1)
    expect(page.locator("#cart-lines")).to_have_attribute("data-saving", "false")
    page.click("#send-payment")
    expect(page.locator("#payment-state")).to_have_text("Waiting for the card on the reader")
    expect(page.locator("#agent-status")).to_have_attribute("data-status", "available")  # seats left

    # The next video customer is offered beside it; accepting it makes it the conversation, and the
    # paying customer a card with the reader's status.
    video_id = server.start_session(side)
    offer = card(page, video_id)
    expect(offer.locator(".medium")).to_have_text("Video")
    offer.locator("button.accept").click()
    expect(page.locator("#session-title")).to_have_text("Session with Side counter")
    paying = held_card(page, paying_id)
    expect(paying).to_have_attribute("data-state", "paying")
    expect(paying.locator(".held-state")).to_have_text("Waiting for the card on the reader")
    # A chat customer arrives mid-conversation: a card with its key, accepted by that key while the
    # agent types in the conversation's menu search, which keeps the focus.
    search = page.locator("#menu-search")
    search.focus()
    search.press_sequentially("Fr")
    started = server.kiosk_call(
        window,
        "POST",
        "/sessions/start",
        {"device_id": str(window.device_id), "customer_locale": "en-US", "medium": "chat"},
    )
    assert started.status_code == 201, started.text
    chat_id = started.json()["session_id"]
    offered = card(page, chat_id)
    expect(offered.locator(".medium")).to_have_text("Text chat")
    expect(offered.locator("kbd.key")).to_have_text("Alt+A")
    expect(offered.locator("button.accept")).to_have_attribute("aria-keyshortcuts", "Alt+A")
    expect(page.locator("#announcer")).to_contain_text("New session from Drive window")  # rung and said
    expect(search).to_be_focused()
    page.keyboard.press("Alt+KeyA")
    chat = held_card(page, chat_id)
    expect(chat).to_have_attribute("data-state", "chat")
    expect(offered).to_have_count(0)
    expect(search).to_be_focused()
    expect(search).to_have_value("Fr")
    expect(page.locator("#session")).to_be_visible()
    expect(page.locator("#session-title")).to_have_text("Session with Side counter")
    expect(page.locator("#agent-status")).to_have_attribute("data-status", "busy")  # every seat taken

    # The chat customer writes: unread on the card, answered from it.
    wrote = server.kiosk_call(window, "POST", f"/sessions/{chat_id}/chat", {"text": "Do you have a veggie burger?"})
    assert wrote.status_code == 201, wrote.text
    expect(chat.locator(".held-state")).to_have_text("1 unread message")
    expect(chat.locator(".preview")).to_have_text("Customer: Do you have a veggie burger?")
    chat.locator(".reply-text").fill("Not today, sorry: the fries are vegan.")
    chat.locator(".reply-text").press("Enter")
    expect(chat.locator(".held-state")).to_have_text("Chatting: nothing unread")
    expect(chat.locator(".reply-text")).to_have_value("")
    messages = server.kiosk_call(window, "GET", f"/sessions/{chat_id}/chat").json()["messages"]
    assert [(m["sender"], m["text"]) for m in messages] == [
        ("kiosk", "Do you have a veggie burger?"),
        ("agent", "Not today, sorry: the fries are vegan."),
    ]

    # Both customers turn the kiosk's accessible mode on: the chat's card says it, and so does the
    # conversation (its note, and the announcement).
    for kiosk, session_id in ((window, chat_id), (side, video_id)):
        turned = server.kiosk_call(kiosk, "POST", f"/sessions/{session_id}/accessible", {"accessible_mode": True})
        assert turned.status_code == 200, turned.text
    expect(chat.locator(".notes .accessible-mode")).to_have_text("Accessible mode: the customer may not see the screen")
    expect(page.locator("#session-accessible .accessible-mode")).to_be_visible()

    # The paying customer's card on the reader is declined (they may try another card).
    declined = present(NO_FUNDS)
    assert declined.action.status == "failed"
    expect(paying).to_have_attribute("data-state", "declined")
    expect(paying.locator(".held-state")).to_have_text(
        "Declined: the card has insufficient funds, the customer may try another card on the reader."
    )

    # A card opens on the main view with its cart and timeline; the conversation is one key away.
    # Held cards in the server's order: the chat (active) before the payment.
    page.keyboard.press("Alt+KeyJ")
    expect(page.locator("#held-view")).to_be_visible()
    expect(page.locator("#session")).to_be_hidden()
    expect(page.locator("#held-view-title")).to_have_text("Session with Drive window")
    expect(page.locator("#held-view-title")).to_be_focused()
    expect(page.locator("#held-view .timeline")).to_contain_text("Customer: Do you have a veggie burger?")
    expect(chat).to_have_attribute("aria-current", "true")
    # Its cart, in the conversation's cart editor: a Cola added from the menu, then one more.
    opened = page.locator("#held-view")
    opened.locator(".held-menu button.menu-item", has_text="Cola").click()
    opened.locator(".held-cart li button.increase").click()
    expect(opened.locator(".held-cart li .quantity")).to_have_text("2")
    expect(opened.locator(".held-cart")).to_have_attribute("data-saving", "false")
    expect(opened.locator(".total")).to_contain_text("Total:")
    order = server.kiosk_call(window, "GET", f"/sessions/{chat_id}/order").json()
    assert [(line["name"], line["quantity"]) for line in order["lines"]] == [("Cola", 2)]
    page.keyboard.press("Alt+KeyJ")
    expect(page.locator("#held-view-title")).to_have_text("Session with Front counter")
    expect(page.locator("#held-view-title")).to_be_focused()
    # The paying customer's cart is locked, and says so.
    expect(opened.locator(".held-cart li .name")).to_have_text("Fries")
    expect(opened.locator(".cart-locked")).to_have_text("The cart is locked while the customer pays.")
    expect(opened.locator(".held-cart li button.increase")).to_be_disabled()
    expect(opened.locator(".held-menu")).to_be_hidden()
    page.keyboard.press("Alt+KeyC")
    expect(page.locator("#session")).to_be_visible()
    expect(page.locator("#held-view")).to_be_hidden()
    expect(page.locator("#session-title")).to_be_focused()

    # A reload: every held session comes back from the server.
    page.reload()
    expect(page.locator("#session-title")).to_have_text("Session with Side counter")
    expect(page.locator("#live-state")).to_have_attribute("data-state", "connected")
    expect(held_card(page, paying_id)).to_have_attribute("data-state", "declined")
    expect(held_card(page, chat_id)).to_have_attribute("data-state", "chat")
    expect(held_card(page, chat_id).locator(".preview")).to_have_text("Customer: Do you have a veggie burger?")

    # The customer pays with another card on the reader: the card says so, and goes when dismissed.
    wait_until(lambda: reader_holds_a_payment(reader.reader_id), 15, lambda: "the payment back on the reader")
    approved = present(APPROVED)
    assert approved.action.status == "succeeded"
    paid = held_card(page, paying_id)
    expect(paid).to_have_attribute("data-state", "paid")
    expect(paid.locator(".held-state")).to_contain_text("Paid: order")
    paid.locator("button.dismiss").click()
    expect(paid).to_have_count(0)

    # The chat customer leaves: its card says so at once.
    left = server.kiosk_call(window, "POST", f"/sessions/{chat_id}/cancel", {})
    assert left.status_code == 200, left.text
    chat = held_card(page, chat_id)
    expect(chat).to_have_attribute("data-state", "ended")
    expect(page.locator("#session-title")).to_have_text("Session with Side counter")
    assert_no_console_errors(page)
