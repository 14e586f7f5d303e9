"""What the agent sees is true. The sign-in form sets each label above its field. A cart edit the
server refuses (here its answer is a 503, as when the service is down) puts the cart back to the
last saved one, says so, and offers to try again; "Try again" sends the refused cart and the cart on
screen is the server's again."""

import re

import pytest
from playwright.sync_api import expect

from tests.agent_dashboard.conftest import EXPECTED_HTTP_REFUSALS, PROVIDER_UNREACHABLE, card, sign_in_and_go_available

pytestmark = pytest.mark.live
UNAVAILABLE = '{"error": {"code": "SERVICE_UNAVAILABLE", "message": "The service is unavailable."}}'


def test_a_refused_cart_edit_goes_back_to_the_saved_cart_says_so_and_offers_to_try_again(world, serve, open_dashboard):
    [agent] = world.agents
    world.items["fries"].stock = 5  # room for a second portion
    world.items["fries"].save(update_fields=["stock"])
    server = serve()
    page = open_dashboard(server)
    sign_in_and_go_available(page, agent)
    session_id = server.start_session(world.kiosk)
    card(page, session_id).locator("button.accept").click()
    expect(page.locator("button.menu-item")).to_have_count(3)
    page.fill("#menu-search", "FRI")  # the menu's search box
    expect(page.locator("button.menu-item")).to_have_count(1)
    page.fill("#menu-search", "")
    expect(page.locator("button.menu-item")).to_have_count(3)
    page.click("button.menu-item:has-text('Fries')")
    line = page.locator("#cart-lines li").first
    expect(page.locator("#cart-lines")).to_have_attribute("data-saving", "false")
    expect(page.locator("#cart-subtotal")).to_have_text("$3.00")

    refuse = lambda route: route.fulfill(status=503, body=UNAVAILABLE, content_type="application/json")  # noqa: E731
    page.route(re.compile(r"/api/orders$"), refuse)
    line.locator("button.increase").click()
    expect(page.locator("#cart-error")).to_have_text(
        "The change was not saved: The service is unavailable. The cart shows what was last saved."
    )
    expect(line.locator(".quantity")).to_have_text("1")  # the saved cart, not the refused 2
    expect(page.locator("#cart-subtotal")).to_have_text("$3.00")
    expect(page.locator("#cart-retry")).to_be_visible()
    order = server.kiosk_call(world.kiosk, "GET", f"/sessions/{session_id}/order").json()
    assert [entry["quantity"] for entry in order["lines"]] == [1]

    page.unroute(re.compile(r"/api/orders$"))
    page.click("#cart-retry")
    expect(page.locator("#cart-error")).to_be_hidden()
    expect(page.locator("#cart-retry")).to_be_hidden()
    expect(line.locator(".quantity")).to_have_text("2")
    expect(page.locator("#cart-subtotal")).to_have_text("$6.00")
    order = server.kiosk_call(world.kiosk, "GET", f"/sessions/{session_id}/order").json()
    assert [entry["quantity"] for entry in order["lines"]] == [2]
    own = re.escape(page.server_url)
    refused = rf"^Failed to load resource: the server responded with a status of 503 .* \[{own}/api/orders"
    page.console_errors.assert_none(allow=f"{EXPECTED_HTTP_REFUSALS.format(own=own)}|{PROVIDER_UNREACHABLE}|{refused}")


def test_the_sign_in_form_sets_each_label_above_its_field(world, serve, open_dashboard):
    page = open_dashboard(serve())
    expect(page.locator("#signin-form")).to_be_visible()
    for field in ("signin-email", "signin-password"):
        label = page.locator(f"label[for='{field}']").bounding_box()
        box = page.locator(f"#{field}").bounding_box()
        assert label["y"] + label["height"] <= box["y"] + 1, (field, label, box)  # above, not beside
        assert abs(label["x"] - box["x"]) <= 2, (field, label, box)  # and aligned with it
    form = page.locator("#signin-form").bounding_box()
    email = page.locator("#signin-email").bounding_box()
    assert email["width"] >= form["width"] * 0.8  # the field spans the form
