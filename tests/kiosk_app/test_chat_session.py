"""A customer who would rather write than be on camera starts a text chat from the attract screen
(`medium: "chat"`), here by keys in accessible mode, where the choice is spoken and within the low
layout's reach: the waiting screen gives the place in line, then the agent (through the API, a
signed-in agent client) accepts and writes, the kiosk shows the message as its main view, the
customer answers and the agent reads it, the agent's cart shows. No camera is ever asked for
(the page's getUserMedia, observed by an init script, is never called; no video token is asked
for) and "Connecting video…" never shows. A reload keeps the chat, and the next message arrives
over the call channel's socket."""

import re

import pytest
from playwright.sync_api import expect

from tests.kiosk_app.conftest import assert_no_console_errors
from tests.kiosk_app.test_accessible_mode import heard, listening
from tests.support.processes import wait_until

pytestmark = pytest.mark.live

# Every call of the page's getUserMedia, counted (the real one still runs).
CAMERA_WATCH = """
window.__cameraAsked = 0;
if (navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
  const real = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = (constraints) => {
    window.__cameraAsked += 1;
    return real(constraints);
  };
}
"""


def test_a_customer_writes_to_the_agent_without_a_camera_and_a_reload_keeps_the_chat(world, kiosk, serve, open_page):
    server = serve()
    agent = server.agent(world.agent.email)

    def before(page):
        listening(kiosk)(page)  # as_paired, and the spoken words observed
        page.add_init_script(CAMERA_WATCH)

    tablet = open_page("/kiosk/", server, before=before)
    video_asks = []
    tablet.on("request", lambda request: "/video/token" in request.url and video_asks.append(request.url))
    frames = []
    tablet.on("websocket", lambda socket: socket.on("framereceived", lambda frame: frames.append(frame)))
    body = tablet.locator("body")
    expect(body).to_have_attribute("data-screen", "attract")
    choice = tablet.locator("#start-chat")
    expect(choice).to_have_text("Write to a person instead (no camera)")

    # By keys: the first key starts accessible mode, which says the choice; the down arrow reaches it.
    tablet.keyboard.press("ArrowDown")
    expect(body).to_have_attribute("data-accessible", "true")
    heard(tablet, r"To write to a person instead of talking on camera, press the down arrow, then Enter\.")
    expect(tablet.locator("#start")).to_be_focused()
    tablet.keyboard.press("ArrowDown")
    expect(choice).to_be_focused()
    heard(tablet, r"^Write to a person instead \(no camera\)\.$")
    screen, button = tablet.locator("#screen-attract").bounding_box(), choice.bounding_box()
    assert screen and button and button["y"] >= screen["y"], (screen, button)  # the low layout's reach

    with tablet.expect_response(re.compile(r"/api/public/sessions/start$")) as started:
        tablet.keyboard.press("Enter")
    assert started.value.request.post_data_json["medium"] == "chat"
    session_id = started.value.json()["session_id"]
    expect(body).to_have_attribute("data-screen", "waiting")
    expect(tablet.locator("#waiting-place")).to_have_text(re.compile(r"\S"))  # the place in line, as for video
    expect(body).to_have_attribute("data-medium", "chat")

    wait_until(
        lambda: any(
            offer["id"] == session_id
            for offer in agent.get(f"{server.url}/api/sessions/incoming", timeout=10).json()["sessions"]
        ),
        20,
        "the chat offered to the agent",
    )
    accepted = agent.post(f"{server.url}/api/sessions/{session_id}/accept", timeout=10)
    assert accepted.status_code == 200, accepted.text
    expect(body).to_have_attribute("data-screen", "session")
    expect(tablet.locator("#agent-name")).to_have_text("Ada Agent")
    expect(tablet.locator("#chat")).to_be_visible()  # the main view: open, and it stays open
    expect(tablet.locator("#chat-close")).to_be_hidden()
    expect(tablet.locator("#video")).to_be_hidden()
    expect(tablet.locator("#chat-open")).to_be_hidden()

    wrote = agent.post(f"{server.url}/api/sessions/{session_id}/chat", json={"text": "Hello! What would you like?"})
    assert wrote.status_code == 201, wrote.text
    expect(tablet.locator("#chat-log li")).to_have_text(["Ada Agent: Hello! What would you like?"])
    tablet.fill("#chat-text", "A burger please")
    tablet.press("#chat-text", "Enter")
    expect(tablet.locator("#chat-log li")).to_have_text(
        ["Ada Agent: Hello! What would you like?", "You: A burger please"]
    )
    read = agent.get(f"{server.url}/api/sessions/{session_id}/chat", timeout=10).json()["messages"]
    assert [(message["sender"], message["text"]) for message in read][-1] == ("kiosk", "A burger please")

    lines = [{"menu_item_id": str(world.items["burger"].pk), "quantity": 1, "notes": ""}]
    posted = agent.post(f"{server.url}/api/orders", json={"session_id": session_id, "lines": lines}, timeout=10)
    assert posted.status_code in (200, 201), posted.text
    expect(tablet.locator("#cart-lines li .name")).to_have_text(["Burger"])

    def no_camera():
        expect(tablet.locator("#video-state")).to_be_hidden()
        assert "Connecting video" not in tablet.locator("body").inner_text()
        assert tablet.evaluate("window.__cameraAsked") == 0
        assert video_asks == []

    no_camera()

    tablet.reload()
    expect(body).to_have_attribute("data-screen", "session")
    expect(body).to_have_attribute("data-medium", "chat")
    conversation = ["Ada Agent: Hello! What would you like?", "You: A burger please"]
    expect(tablet.locator("#chat-log li")).to_have_text(conversation)
    expect(tablet.locator("#cart-lines li .name")).to_have_text(["Burger"])
    frames.clear()
    again = agent.post(f"{server.url}/api/sessions/{session_id}/chat", json={"text": "Anything to drink?"})
    assert again.status_code == 201, again.text
    expect(tablet.locator("#chat-log li")).to_have_text([*conversation, "Ada Agent: Anything to drink?"])
    # Not only the read on joining: the message came as ChatMessage on the socket.
    wait_until(
        lambda: any("ChatMessage" in str(frame) and "Anything to drink?" in str(frame) for frame in frames),
        10,
        "the agent's message over the call channel",
    )
    no_camera()
    assert_no_console_errors(tablet)
