"""What the kiosk says is true, in a real Chromium against the real server: the kiosk says "Paid"
only for a paid order (the agent confirms ending as Completed with an unpaid cart, and no end reason
is preselected); an agent serving longer than the inactivity limit keeps the session, while nobody
answering the prompt in the queue cancels with the reason "inactivity"; a reload during the active
session and during payment resumes without a tap; the Pay button lies within the viewport in both
orientations."""

import re

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.agent_dashboard.conftest import card, sign_in_and_go_available
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors, with_clock
from tests.support.payments import demo_account_for

pytestmark = pytest.mark.live
LANDSCAPE, PORTRAIT = (1280, 800), (800, 1280)


def accepted_session(server, agent_http) -> str:
    incoming = agent_http.get(f"{server.url}/api/sessions/incoming", timeout=10).json()["sessions"]
    assert len(incoming) == 1, incoming
    session_id = incoming[0]["id"]
    answer = agent_http.post(f"{server.url}/api/sessions/{session_id}/accept", timeout=10)
    assert answer.status_code == 200, answer.text
    return session_id


def put_in_cart(server, agent_http, session_id: str, item) -> dict:
    lines = [{"menu_item_id": str(item.pk), "quantity": 1}]
    posted = agent_http.post(f"{server.url}/api/orders", json={"session_id": session_id, "lines": lines}, timeout=10)
    assert posted.status_code in (200, 201), posted.text
    return posted.json()


def test_completed_with_an_unpaid_cart_asks_the_agent_and_the_kiosk_never_says_paid(world, kiosk, serve, open_page):
    server = serve()
    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    dashboard = open_page("/agent/", server)
    sign_in_and_go_available(dashboard, world.agent)

    tablet.click("#start")
    incoming = dashboard.locator("#incoming li").first
    expect(incoming).to_be_visible()
    card(dashboard, incoming.get_attribute("data-session-id")).locator("button.accept").click()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    dashboard.click("button.menu-item:has-text('Fries')")
    expect(tablet.locator("#cart-lines li")).to_have_count(1)
    expect(dashboard.locator("#cart-lines")).to_have_attribute("data-saving", "false")

    expect(dashboard.locator("#end-reason")).to_have_value("")  # nothing preselected
    dashboard.click("#end-session")
    expect(dashboard.locator("#end-problem")).to_have_text("Choose why the session ends.")
    dashboard.select_option("#end-reason", "completed")
    expect(dashboard.locator("#end-problem")).to_be_hidden()
    dashboard.click("#end-session")
    expect(dashboard.locator("#end-problem")).to_contain_text("The cart has not been paid.")
    expect(dashboard.locator("#end-confirm")).to_be_visible()
    dashboard.click("#end-confirm-no")  # the agent thinks again: still in the session
    expect(dashboard.locator("#end-confirm")).to_be_hidden()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    dashboard.click("#end-session")
    dashboard.click("#end-confirm-yes")

    expect(tablet.locator("body")).to_have_attribute("data-screen", "ended")
    expect(tablet.locator("#ended-title")).to_have_text("Thank you for visiting")
    expect(tablet.locator("body")).not_to_contain_text("Paid")
    expect(tablet.locator("#order-number")).to_be_hidden()
    expect(dashboard.locator("#session-result")).to_contain_text("Session completed")
    expect(dashboard.locator("#session-result")).not_to_contain_text("Paid")
    expect(dashboard.locator("#end-reason")).to_have_value("")  # the next session starts with none
    assert_no_console_errors(tablet)


def test_an_agent_serving_past_the_inactivity_limit_keeps_the_session_and_an_unanswered_queue_prompt_says_inactivity(
    world, kiosk, serve, open_page
):
    server = serve()
    agent = server.agent(world.agent.email)
    tablet = open_page("/kiosk/?idle_seconds=2&still_there_seconds=2", server, before=with_clock(as_paired(kiosk)))
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")

    tablet.click("#start")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
    session_id = accepted_session(server, agent)
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    put_in_cart(server, agent, session_id, world.items["burger"])
    # The page's clock past the inactivity limit and the prompt together: the inactivity timer
    # (armed by the last touch, the tap on Start) has fired, and asked nothing.
    tablet.clock.run_for(5_000)
    expect(tablet.locator("#still-there")).to_be_hidden()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    assert server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/status").json()["status"] == "active"
    ended = agent.post(f"{server.url}/api/sessions/{session_id}/end", json={"reason": "customer_abandoned"}, timeout=10)
    assert ended.status_code == 200, ended.text
    expect(tablet.locator("body")).to_have_attribute("data-screen", "ended")
    tablet.click("#ended-done")

    # Waiting in the queue, nobody touches the screen: asked, then cancelled for inactivity.
    with tablet.expect_request(lambda request: request.url.endswith("/cancel"), timeout=10_000) as cancel:
        tablet.click("#start")
        expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
        # The server's answer first (the place in line comes with it): the inactivity timer asks
        # only of a session the kiosk knows is pending, and the page's clock jumps at once.
        expect(tablet.locator("#waiting-place")).to_be_visible()
        tablet.clock.run_for(2_000)
        expect(tablet.locator("#still-there")).to_be_visible()
        tablet.clock.run_for(2_000)
    assert cancel.value.post_data_json == {"reason": "inactivity"}
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    assert_no_console_errors(tablet)


def test_a_reload_during_the_session_and_during_payment_resumes_without_a_tap(world, kiosk, serve, open_page):
    demo_account_for(world.business.owner, "acct_demo_reload")
    server = serve()
    agent = server.agent(world.agent.email)
    tablet = open_page("/kiosk/", server, viewport=LANDSCAPE, before=as_paired(kiosk))
    tablet.click("button.language[data-locale='es-ES']")
    tablet.click("#start")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
    session_id = accepted_session(server, agent)
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    order = put_in_cart(server, agent, session_id, world.items["burger"])
    expect(tablet.locator("#cart-lines li")).to_have_count(1)

    tablet.reload()  # during the active session: the agent, the cart, no tap
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    expect(tablet.locator("#agent-name")).to_have_text("Ada Agent")
    expect(tablet.locator("#cart-lines li .name")).to_have_text("Burger")
    expect(tablet.locator("button.language[data-locale='es-ES']")).to_have_attribute("aria-pressed", "true")

    sent = agent.post(f"{server.url}/api/sessions/{session_id}/payment", timeout=10)
    assert sent.status_code == 200, sent.text
    expect(tablet.locator("#payment")).to_be_visible()
    amount = f"{order['total_cents'] / 100:.2f}".replace(".", ",")  # Spanish chosen: es-ES formatting
    # During payment: the payment step again, its Pay button in sight; in landscape, then turned
    # to portrait (the tablet turned, the page loaded again in its new shape).
    for viewport in (LANDSCAPE, PORTRAIT):
        tablet.set_viewport_size({"width": viewport[0], "height": viewport[1]})
        tablet.reload()
        expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
        expect(tablet.locator("#payment")).to_be_visible()
        expect(tablet.locator("#payment-amount")).to_have_text(f"A pagar: {amount}\u00a0US$")
        expect(tablet.locator("#pay")).to_be_in_viewport(ratio=1)
    tablet.click("button.test-card:has-text('4242 4242 4242 4242')")
    tablet.click("#pay")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    expect(tablet.locator("#thanks-total")).to_have_text(f"Pagado {amount}\u00a0US$")
    tablet.reload()  # a finished session is not resumed: the next customer's attract screen
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    assert_no_console_errors(tablet)


# What the page's sockets receive, as the page sees it: every WebSocket the app opens records its
# messages in window.__frames (before the app's own handler, set after the socket is made, runs).
RECORD_FRAMES = """
window.__frames = [];
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => window.__frames.push(String(event.data)));
  }
};
"""


def test_each_card_failure_in_its_own_words_and_leaving_with_a_cart_asks_first(world, kiosk, serve, open_page):
    demo_account_for(world.business.owner, "acct_demo_words")
    server = serve()
    agent = server.agent(world.agent.email)

    def before(page):
        as_paired(kiosk)(page)
        page.add_init_script(RECORD_FRAMES)

    tablet = open_page("/kiosk/", server, before=before)
    tablet.click("#start")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
    session_id = accepted_session(server, agent)
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    put_in_cart(server, agent, session_id, world.items["fries"])
    expect(tablet.locator("#cart-lines li")).to_have_count(1)

    sent = agent.post(f"{server.url}/api/sessions/{session_id}/payment", timeout=10)
    assert sent.status_code == 200, sent.text
    expect(tablet.locator("#pay")).to_be_visible()
    tablet.click("#pay")  # nothing typed: not a decline
    expect(tablet.locator("#payment-error")).to_have_text("Enter the card number.")
    expect(tablet.locator("#payment")).to_have_attribute("data-state", "ready")
    tablet.click("button.test-card:has-text('4000 0000 0000 0119')")
    tablet.click("#pay")  # a processing error: a passing fault, not a decline
    expect(tablet.locator("#payment-error")).to_have_text(
        "Your card could not be processed just now (not declined). Please try again."
    )
    expect(tablet.locator("#payment")).to_have_attribute("data-state", "error")
    # The service's PaymentFailed that follows does not call it declined.
    tablet.wait_for_function(
        "() => window.__frames.some((frame) => frame.includes('\"PaymentFailed\"'))", timeout=10_000
    )
    tablet.evaluate("() => new Promise((handled) => setTimeout(handled))")  # after its handler ran
    expect(tablet.locator("#payment-error")).not_to_contain_text("declined,")
    tablet.click("button.test-card:has-text('4000 0000 0000 0002')")
    tablet.click("#pay")
    expect(tablet.locator("#payment-error")).to_have_text("Card declined, try another card.")
    expect(tablet.locator("#payment")).to_have_attribute("data-state", "declined")

    withdrawn = agent.post(f"{server.url}/api/sessions/{session_id}/payment/cancel", timeout=10)
    assert withdrawn.status_code == 200, withdrawn.text
    expect(tablet.locator("#leave-session")).to_be_visible()
    tablet.click("#leave-session")  # a cart: the customer is asked first
    expect(tablet.locator("#leave-confirm")).to_be_visible()
    tablet.click("#leave-confirm-no")
    expect(tablet.locator("#leave-confirm")).to_be_hidden()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    assert server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/status").json()["status"] == "active"
    tablet.click("#leave-session")
    tablet.click("#leave-confirm-yes")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    assert server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/status").json()["status"] != "active"
    assert_no_console_errors(tablet)


def test_the_kiosk_speaks_the_chosen_language_on_every_screen_and_the_agent_sees_it(world, kiosk, serve, open_page):
    """The choice applies at once, customer_locale goes as chosen, prices
    are formatted for the language, the menu shows beside the video in it, and the agent's session
    header names the customer's language."""
    burger = world.items["burger"]
    burger.allergens, burger.dietary = ["gluten", "sesame"], ["halal"]
    burger.save(update_fields=["allergens", "dietary"])
    world.items["shake"] = factories.MenuItemFactory(
        category=burger.category, name="Shake", price_cents=450, track_stock=True, stock=0
    )
    server = serve()
    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    dashboard = open_page("/agent/", server)
    sign_in_and_go_available(dashboard, world.agent)
    expect(tablet.locator("#start")).to_have_text("Start your order")
    tablet.click("button.language[data-locale='de-DE']")
    expect(tablet.locator("#start")).to_have_text("Bestellung beginnen")  # at once
    tablet.click("button.language[data-locale='es-ES']")
    expect(tablet.locator("#start")).to_have_text("Empieza tu pedido")
    expect(tablet.locator("html")).to_have_attribute("lang", "es")

    with tablet.expect_request(lambda request: request.url.endswith("/sessions/start")) as started:
        tablet.click("#start")
    assert started.value.post_data_json["customer_locale"] == "es-ES"
    expect(tablet.locator("#waiting-title")).to_have_text("Buscando a alguien que te ayude…")
    expect(tablet.locator("#cancel-waiting")).to_have_text("Cancelar")
    incoming = dashboard.locator("#incoming li").first
    expect(incoming).to_be_visible()
    card(dashboard, incoming.get_attribute("data-session-id")).locator("button.accept").click()
    expect(dashboard.locator("#session-language")).to_have_text("Customer's language: Spanish (Spain)")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    expect(tablet.locator("#leave-session")).to_have_text("He terminado, salir")
    expect(tablet.locator("#cart-empty")).to_have_text("Dinos qué te apetece: tu pedido aparece aquí.")
    menu = tablet.locator("#kiosk-menu")  # the menu beside the video, in Spanish
    expect(menu.locator("#kiosk-menu-title")).to_have_text("Nuestra carta")
    burger = menu.locator(f".menu-item[data-item-id='{world.items['burger'].pk}']")
    expect(burger.locator(".name")).to_have_text("Burger")
    expect(burger.locator(".photo.placeholder")).to_have_text("Sin foto")  # photo_url null
    expect(burger.locator(".allergens")).to_have_text("Contiene: Gluten, Sésamo")
    expect(burger.locator(".tags")).to_have_text("Halal")
    shake = menu.locator(f".menu-item[data-item-id='{world.items['shake'].pk}']")
    expect(shake).to_have_class(re.compile(r"\bsold-out\b"))
    expect(shake.locator(".sold-out-note")).to_have_text("Agotado")
    dashboard.click("button.menu-item:has-text('Fries')")
    expect(tablet.locator("#cart-lines li .price")).to_have_text("3,00\u00a0US$")  # Intl, es-ES
    tablet.click("#leave-session")
    expect(tablet.locator("#leave-confirm-title")).to_have_text("¿Salir y cancelar tu pedido?")
    tablet.click("#leave-confirm-yes")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    expect(tablet.locator("#start")).to_have_text("Start your order")  # the next customer starts in English
    assert_no_console_errors(tablet)
