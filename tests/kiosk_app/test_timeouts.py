"""Every time limit a customer meets at the kiosk, in a real Chromium against a live server whose
pending timeout is shortened (24 s): each warns at least 20 s ahead (the kiosk's defaults, kept
here), on screen and with a sound, and one key extends it. The inactivity prompt while waiting;
the server's own pending timeout (warned from GET .../timeout, extended by POST .../timeout, which
the server confirms); the inactivity prompt while paying alone (the server runs no timeout then);
and the return to the start after the thank-you screen."""

import re
import time

import pytest
from django.utils.dateparse import parse_datetime
from playwright.sync_api import expect

from tests.kiosk_app.conftest import assert_no_console_errors
from tests.kiosk_app.test_accessible_mode import listening
from tests.support.payments import demo_account_for

pytestmark = pytest.mark.live
PENDING = 24  # the server's pending timeout, seconds: its warning comes 4 s after the start
LEAD = 20  # the least warning EN 301 549 11.2.2.1 asks; the kiosk's default warning time
SUCCEEDS = "4242 4242 4242 4242"
# Touches keep the kiosk's own inactivity away (a customer at the screen), and say nothing to the
# server's timeout: only a key or the warning's button extends that.
TOUCHING = "window.__touching = setInterval(() => document.dispatchEvent(new Event('pointerdown')), 400)"


@pytest.fixture
def demo_account(world):
    demo_account_for(world.business.owner, "acct_demo_timeouts")


def tones(page) -> int:
    return page.evaluate("window.__tones")


def test_every_timeout_warns_20_s_ahead_with_a_sound_and_one_key_extends_it(
    world, kiosk, demo_account, serve, open_page
):
    server = serve(TASK_MODE="thread", SESSION_PENDING_TIMEOUT=str(PENDING))
    tablet = open_page("/kiosk/?idle_seconds=2&thank_you_seconds=22", server, before=listening(kiosk))
    body, prompt, count = tablet.locator("body"), tablet.locator("#still-there"), tablet.locator("#still-there-count")
    warned = re.compile(rf"^Your session ends in ({LEAD}|{LEAD - 1}) s\.$")  # a tick may pass before it is read

    def timeout() -> dict:
        return server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/timeout").json()

    def extend_by_key() -> dict:
        with tablet.expect_response(lambda r: r.url.endswith("/timeout") and r.request.method == "POST") as asked:
            tablet.keyboard.press("ArrowDown")
        expect(prompt).to_be_hidden()
        assert asked.value.status == 200
        return asked.value.json()

    # 1. Waiting, nobody touching: the inactivity prompt, 20 s ahead; a key answers it (and gives
    #    the server's timeout its whole time again).
    expect(tablet.locator("#business-name")).to_have_text("Burger Barn")
    with tablet.expect_response(re.compile(r"/api/public/sessions/start$")) as started:
        tablet.click("#start")
    session_id = started.value.json()["session_id"]
    expect(body).to_have_attribute("data-screen", "waiting")
    expect(prompt).to_be_visible(timeout=10_000)
    expect(count).to_have_text(warned)
    assert tones(tablet) >= 1
    sounded = tones(tablet)
    assert extend_by_key()["seconds_left"] >= PENDING - 1
    expect(body).to_have_attribute("data-screen", "waiting")

    # 2. The customer keeps touching the screen: the server's pending timeout is warned of at
    #    least 20 s before the server's own deadline, and a key pushes that deadline back.
    tablet.evaluate(TOUCHING)
    expect(prompt).to_be_visible(timeout=(PENDING - LEAD + 5) * 1000)
    seen = time.time()
    deadline = parse_datetime(timeout()["timeout_at"]).timestamp()
    assert deadline - seen >= LEAD - 1, f"warned {deadline - seen:.1f} s ahead"  # less the time to see it
    expect(count).to_have_text(warned)
    assert tones(tablet) > sounded
    sounded = tones(tablet)
    extended = extend_by_key()
    assert extended["status"] == "pending" and extended["seconds_left"] >= PENDING - 1
    pushed_back = parse_datetime(timeout()["timeout_at"]).timestamp()  # the server's own word
    assert pushed_back > deadline and pushed_back - time.time() >= PENDING - 2

    # 3. Paying alone: no server timeout runs; the inactivity prompt watches the payment.
    tablet.click("#order-alone")
    tablet.get_by_role("button", name="Add Fries").click()
    expect(tablet.locator("#cart-lines li")).to_have_count(1)
    tablet.click("#alone-pay")
    expect(tablet.locator("#card-number")).to_be_visible()
    assert timeout()["timeout_at"] is None
    tablet.evaluate("clearInterval(window.__touching)")
    expect(prompt).to_be_visible(timeout=10_000)
    expect(count).to_have_text(warned)
    assert tones(tablet) > sounded
    sounded = tones(tablet)
    tablet.keyboard.press("ArrowDown")
    expect(prompt).to_be_hidden()
    tablet.evaluate(TOUCHING)
    assert server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/status").json()["status"] == "payment"
    expect(tablet.locator("#dining")).to_be_visible()  # asked (the default): read after the card step opens
    tablet.click("#dining-take-away")
    tablet.click(f"button.test-card:has-text('{SUCCEEDS}')")
    tablet.click("#pay")

    # 4. The thank-you screen goes back to the start after 22 s, warning 20 s ahead; a key extends it.
    expect(body).to_have_attribute("data-screen", "thanks")
    returning = tablet.locator("#returning")
    expect(returning).to_be_visible(timeout=10_000)
    expect(tablet.locator("#returning-count")).to_have_text(
        re.compile(rf"^Back to the start in ({LEAD}|{LEAD - 1}) s\.$")
    )
    assert tones(tablet) > sounded
    tablet.keyboard.press("ArrowDown")
    expect(returning).to_be_hidden()
    expect(body).to_have_attribute("data-screen", "thanks")
    assert_no_console_errors(tablet)
