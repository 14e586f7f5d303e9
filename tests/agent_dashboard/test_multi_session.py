"""One agent serving three customers at once (capacity 3), in the dashboard against the real
server: a video customer sent to payment becomes a card ("paying") when the next video customer is
accepted into the conversation; a text-chat customer's offer arrives mid-conversation, rings, and is
accepted by its key (Alt+A) while the focus stays in the conversation; the chat customer's message
shows on its card as unread and is answered from the card; the paying customer's card says the
decline, then that they paid; a card opens on the main view (Alt+J) and the conversation is one key
away (Alt+C); a reload brings every held session back from the server."""

import pytest
from playwright.sync_api import expect

from apps.routing.services import owner_capacity_set
from tests import factories
from tests.agent_dashboard.conftest import assert_no_console_errors, card, sign_in_and_go_available

pytestmark = pytest.mark.live


def held_card(page, session_id: str):
    return page.locator(f"#held-cards li[data-session-id='{session_id}']")


def test_an_agent_serves_a_conversation_a_payment_and_a_chat_at_once(world, serve, processor, open_dashboard):
    [agent] = world.agents
    owner_capacity_set(owner_id=world.business.owner_id, capacity=3)
    front = world.kiosk
    side = factories.KioskFactory(business=world.business, name="Side counter", location="Patio")
    window = factories.KioskFactory(business=world.business, name="Drive window", location="Car park")
    server = serve()
    page = open_dashboard(server)
    sign_in_and_go_available(page, agent)
    expect(page.locator("#live-state")).to_have_attribute("data-state", "connected")
    expect(page.locator("#keys-hint")).to_contain_text("Alt+A accepts an offer")

    # The first video customer: served, then sent to payment (the video seat frees).
    paying_id = server.start_session(front)
    card(page, paying_id).locator("button.accept").click()
    expect(page.locator("#session-title")).to_have_text("Session with Front counter")
    page.locator("button.menu-item[data-item-id]", has_text="Fries").click()
    expect(page.locator("#cart-lines li")).to_have_count(1)
    expect(page.locator("#cart-lines")).to_have_attribute("data-saving", "false")
    page.click("#send-payment")
    expect(page.locator("#payment")).to_have_attribute("data-state", "waiting")
    expect(page.locator("#agent-status")).to_have_attribute("data-status", "available")  # seats left

    # The next video customer is offered beside it; accepting it makes it the conversation, and the
    # paying customer a card.
    video_id = server.start_session(side)
    offer = card(page, video_id)
    expect(offer.locator(".medium")).to_have_text("Video")
    offer.locator("button.accept").click()
    expect(page.locator("#session-title")).to_have_text("Session with Side counter")
    paying = held_card(page, paying_id)
    expect(paying).to_have_attribute("data-state", "paying")
    expect(paying.locator(".held-state")).to_have_text("Waiting for the customer's card…")

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

    # The paying customer's card is declined (they may try another card).
    [intent] = server.processor.intents.values()
    server.processor_event("payment_intent.payment_failed", intent["id"])
    expect(paying).to_have_attribute("data-state", "declined")
    expect(paying.locator(".held-state")).to_contain_text("another card")

    # A card opens on the main view with its cart and timeline; the conversation is one key away.
    # Held cards in the server's order: the chat (active) before the payment.
    page.keyboard.press("Alt+KeyJ")
    expect(page.locator("#held-view")).to_be_visible()
    expect(page.locator("#session")).to_be_hidden()
    expect(page.locator("#held-view-title")).to_have_text("Session with Drive window")
    expect(page.locator("#held-view-title")).to_be_focused()
    expect(page.locator("#held-view .timeline")).to_contain_text("Customer: Do you have a veggie burger?")
    expect(chat).to_have_attribute("aria-current", "true")
    page.keyboard.press("Alt+KeyJ")
    expect(page.locator("#held-view-title")).to_have_text("Session with Front counter")
    expect(page.locator("#held-view-title")).to_be_focused()
    expect(page.locator("#held-view .held-cart")).to_contain_text("1 × Fries")
    page.keyboard.press("Alt+KeyC")
    expect(page.locator("#session")).to_be_visible()
    expect(page.locator("#held-view")).to_be_hidden()
    expect(page.locator("#session-title")).to_be_focused()

    # A reload: every held session comes back from the server.
    page.reload()
    expect(page.locator("#session-title")).to_have_text("Session with Side counter")
    expect(held_card(page, paying_id)).to_have_attribute("data-state", "declined")
    expect(held_card(page, chat_id)).to_have_attribute("data-state", "chat")
    expect(held_card(page, chat_id).locator(".preview")).to_have_text("Customer: Do you have a veggie burger?")

    # The customer pays with another card: the card says so, and goes when dismissed.
    server.processor_event("payment_intent.succeeded", intent["id"])
    paid = held_card(page, paying_id)
    expect(paid).to_have_attribute("data-state", "paid")
    expect(paid.locator(".held-state")).to_contain_text("Paid: order")
    paid.locator("button.dismiss").click()
    expect(paid).to_have_count(0)
    expect(page.locator("#session-title")).to_have_text("Session with Side counter")
    assert_no_console_errors(page)
