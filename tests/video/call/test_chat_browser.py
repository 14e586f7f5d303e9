"""The chat when video fails, in one call: the customer refuses the camera, so the kiosk's chat
appears by itself and the agent's opens when the call has not connected within
CHAT_AGENT_OPEN_SECONDS (and again when the customer writes); a canned reply and a typed message
reach the agent, the agent's reaches the kiosk; a failed send is said and keeps the text; a reload
of the kiosk keeps the conversation (read from the API, nothing doubled) and the live link."""

import json

import pytest
from playwright.sync_api import expect

from tests.kiosk_app.conftest import assert_no_console_errors
from tests.video.call.test_webrtc_call_browser import start_call

pytestmark = [pytest.mark.live, pytest.mark.timeout(300)]

SENT_FAILED = "Your message could not be sent. Please try again."


def refuse_posts_once(route) -> None:
    """The chat's POST answered 409 once (a refusal the app must say in words)."""
    if route.request.method != "POST":
        return route.fallback()
    body = {"error": {"code": "INVALID_STATE", "message": "Not now.", "details": {}}}
    route.fulfill(status=409, content_type="application/json", body=json.dumps(body))


def test_without_a_camera_the_chat_appears_and_messages_cross_both_ways_and_survive_a_reload(
    world, kiosk, serve, open_call_page
):
    server, tablet, dashboard, session_id = start_call(
        world, kiosk, serve, open_call_page, kiosk_media=False, CHAT_AGENT_OPEN_SECONDS="2"
    )
    expect(tablet.locator("#video")).to_have_attribute("data-state", "unavailable", timeout=30_000)
    expect(tablet.locator("#chat")).to_be_visible()
    expect(tablet.locator("#chat-open")).to_be_hidden()
    expect(tablet.locator("#chat-close")).to_be_hidden()  # without video the chat is the way to talk
    expect(tablet.locator("#chat-empty")).to_be_visible()
    # The agent's call never connects (the customer's side never joins): its chat opens by itself.
    expect(dashboard.locator("#chat")).to_be_visible(timeout=15_000)
    expect(dashboard.locator("#chat-count")).to_have_text("0 / 500 characters")
    dashboard.click("#chat-toggle")
    expect(dashboard.locator("#chat")).to_be_hidden()

    tablet.click("#chat-canned button[data-reply='chat.yes']")
    expect(dashboard.locator("#chat")).to_be_visible()  # the customer wrote: open again
    expect(dashboard.locator("#chat-log li")).to_have_text(["Customer: Yes"])
    tablet.focus("#chat-text")
    tablet.keyboard.type("A burger please")
    tablet.keyboard.press("Enter")
    expect(dashboard.locator("#chat-log li")).to_have_text(["Customer: Yes", "Customer: A burger please"])
    expect(tablet.locator("#chat-text")).to_have_value("")
    expect(tablet.locator("#chat-log li")).to_have_text(["You: Yes", "You: A burger please"])

    dashboard.fill("#chat-text", "<b>One</b> burger. Anything else?")
    expect(dashboard.locator("#chat-count")).to_have_text("33 / 500 characters")
    expect(dashboard.locator("#chat-text")).to_have_attribute("maxlength", "500")
    dashboard.press("#chat-text", "Enter")
    agent_line = f"{world.agent.name}: <b>One</b> burger. Anything else?"
    expect(tablet.locator("#chat-log li").nth(2)).to_have_text(agent_line)  # as text, not markup
    expect(dashboard.locator("#chat-text")).to_have_value("")

    # A refused send is said in words and the typed text stays for another try.
    tablet.route("**/chat", refuse_posts_once)
    tablet.fill("#chat-text", "No, thanks")
    tablet.click("#chat-send")
    expect(tablet.locator("#chat-error")).to_have_text(SENT_FAILED)
    expect(tablet.locator("#chat-text")).to_have_value("No, thanks")
    tablet.unroute("**/chat")
    tablet.click("#chat-send")
    expect(tablet.locator("#chat-error")).to_be_hidden()
    expect(dashboard.locator("#chat-log li")).to_have_count(4)

    conversation = ["You: Yes", "You: A burger please", agent_line, "You: No, thanks"]
    expect(tablet.locator("#chat-log li")).to_have_text(conversation)
    tablet.reload()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session", timeout=20_000)
    expect(tablet.locator("#chat")).to_be_visible(timeout=30_000)
    expect(tablet.locator("#chat-log li")).to_have_text(conversation)
    # Live again after the reload: the agent's next message arrives once.
    dashboard.fill("#chat-text", "Coming right up")
    dashboard.click("#chat-send")
    expect(tablet.locator("#chat-log li")).to_have_text([*conversation, f"{world.agent.name}: Coming right up"])
    # A second message after it: a second copy of the first (a doubled subscription) would have
    # come before it, on the same socket, so the log ending with the two once each shows it.
    dashboard.fill("#chat-text", "Anything else?")
    dashboard.click("#chat-send")
    later = [f"{world.agent.name}: Coming right up", f"{world.agent.name}: Anything else?"]
    expect(tablet.locator("#chat-log li")).to_have_text([*conversation, *later])
    expect(dashboard.locator("#chat-log li")).to_have_text(
        ["Customer: Yes", "Customer: A burger please", agent_line, "Customer: No, thanks", *later]
    )

    assert_no_console_errors(tablet)
    assert_no_console_errors(dashboard)
