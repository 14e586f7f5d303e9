"""The payment step holds still in a real Chromium against the live server: the card field a
customer is about to tap does not move once it is on the screen. The eat-in/take-away question
above it is known before the step opens (read as the session opens, static/kiosk/dining.js), so it
is drawn with the card fields, not a moment after them; where the owner turned the question off it
never shows. Every frame from the card field's first paint records its box (an init script's
requestAnimationFrame), and the boxes must all be one."""

import re

import pytest
from playwright.sync_api import expect

from apps.orders import services as order_services
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors
from tests.support.payments import demo_account_for
from tests.support.processes import wait_until

pytestmark = pytest.mark.live

# The card field's box at every frame it is shown (only the changes are kept), and a frame count.
WATCH_CARD_FIELD = """
window.__cardBoxes = [];
window.__cardFrames = 0;
const look = () => {
  const field = document.getElementById("card-number");
  if (field && field.getClientRects().length > 0) {
    const { top, left, width, height } = field.getBoundingClientRect();
    const box = { top, left, width, height, asked: !document.getElementById("dining").hidden };
    const last = window.__cardBoxes[window.__cardBoxes.length - 1];
    const moved = !last || ["top", "left", "width", "height"].some((side) => last[side] !== box[side]);
    if (moved) window.__cardBoxes.push(box);
    window.__cardFrames += 1;
  }
  window.requestAnimationFrame(look);
};
window.requestAnimationFrame(look);
"""


def watching(kiosk):
    paired = as_paired(kiosk)

    def install(page):
        paired(page)
        page.add_init_script(WATCH_CARD_FIELD)

    return install


@pytest.mark.parametrize("asks", [True, False], ids=["asked", "not-asked"])
def test_the_card_field_does_not_move_once_the_payment_step_is_shown(world, kiosk, serve, open_page, asks):
    demo_account_for(world.business.owner, "acct_demo_steady")
    order_services.order_settings_update(business=world.business, ask_dining=asks, keep_receipt_email=False)
    server = serve()
    dining_reads = []

    def read(response):
        if re.search(r"/dining$", response.url) and response.request.method == "GET":
            dining_reads.append(response.status)

    tablet = open_page("/kiosk/", server, before=watching(kiosk))
    tablet.on("response", read)
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    tablet.click("#start")
    tablet.click("#order-alone")
    tablet.get_by_role("button", name="Add Burger").click()
    expect(tablet.locator("#cart-lines li")).to_have_count(1)
    tablet.click("#alone-pay")

    card = tablet.locator("#card-number")
    expect(card).to_be_visible()
    dining = tablet.locator("#dining")
    if asks:
        expect(dining).to_be_visible()
    wait_until(lambda: dining_reads, 10, "the kiosk's read of whether to ask")
    assert dining_reads == [200]  # one read for the session
    # Some frames after everything the step waits on has come: the field has had time to move.
    frames = tablet.evaluate("window.__cardFrames")
    wait_until(lambda: tablet.evaluate("window.__cardFrames") >= frames + 10, 10, "ten more frames")

    boxes = tablet.evaluate("window.__cardBoxes")
    assert len(boxes) == 1, f"the card field moved after it was shown: {boxes}"
    assert boxes[0]["asked"] is asks  # the question was there from the first frame, or never
    expect(dining).to_be_visible() if asks else expect(dining).to_be_hidden()
    assert card.bounding_box()["y"] == pytest.approx(boxes[0]["top"], abs=0.5)
    assert_no_console_errors(tablet)
