"""The payment adapter's live side: with a processor configured (the stand-in here) the kiosk loads
the processor's own browser library from the processor at run time, opens it with the publishable
key on the owner's connected account, and confirms the intent's client secret with the card field it
mounted. There is no internet here, so the library's address is answered by a small stand-in script
that records what the kiosk asked of it; the outcome still comes from the signed processor events: a
card error the library reports shows "card declined" at once, and the thank-you screen waits for
payment_intent.succeeded."""

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.agent_dashboard.conftest import Server as SignedEvents
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors
from tests.support.payments import ACCOUNT, CONNECT_SECRET, PLATFORM_SECRET

pytestmark = pytest.mark.live

# What Stripe.js offers that the adapter uses: Stripe(key, {stripeAccount}), elements().create,
# mount, destroy, confirmCardPayment. The first confirm is refused as a card error.
PROCESSOR_LIBRARY = """
window.Stripe = function (key, options) {
  window.processorCalls = [{ call: "Stripe", key: key, options: options }];
  var confirms = 0;
  return {
    elements: function () {
      return { create: function (type) {
        window.processorCalls.push({ call: "create", type: type });
        return {
          mount: function (slot) { slot.innerHTML = '<input id="processor-card" aria-label="Card">'; },
          destroy: function () { window.processorCalls.push({ call: "destroy" }); },
        };
      } };
    },
    confirmCardPayment: function (secret, data) {
      confirms += 1;
      window.processorCalls.push({ call: "confirm", secret: secret, card: Boolean(data.payment_method.card) });
      if (confirms === 1) return Promise.resolve({ error: { type: "card_error", message: "Your card was declined." } });
      return Promise.resolve({ paymentIntent: { status: "processing" } });
    },
  };
};
"""


def test_live_payments_use_the_processors_library_on_the_owners_account(world, kiosk, serve, open_page, processor):
    owner = world.business.owner
    factories.OwnerBillingFactory(owner=owner, account_id=ACCOUNT, charges_enabled=True, payouts_enabled=True)
    server = serve(
        PROCESSOR_SECRET_KEY="sk_test_standin",
        PROCESSOR_PUBLISHABLE_KEY="pk_test_kiosk",
        PROCESSOR_API_BASE=processor.url,
        PROCESSOR_WEBHOOK_SECRET=PLATFORM_SECRET,
        PROCESSOR_CONNECT_WEBHOOK_SECRET=CONNECT_SECRET,
    )
    agent = server.agent(world.agent.email)
    library_requests = []

    def before(page):
        as_paired(kiosk)(page)

        def library(route):
            library_requests.append(route.request.url)
            route.fulfill(status=200, content_type="application/javascript", body=PROCESSOR_LIBRARY)

        page.route("https://js.stripe.com/v3/", library)

    page = open_page("/kiosk/", server, before=before)
    page.click("#start")
    expect(page.locator("body")).to_have_attribute("data-screen", "waiting")
    [waiting] = agent.get(f"{server.url}/api/sessions/incoming", timeout=10).json()["sessions"]
    session_id = waiting["id"]
    assert agent.post(f"{server.url}/api/sessions/{session_id}/accept", timeout=10).status_code == 200
    line = {"menu_item_id": str(world.items["burger"].pk), "quantity": 1}
    assert agent.post(f"{server.url}/api/orders", json={"session_id": session_id, "lines": [line]}, timeout=10).ok
    expect(page.locator("#cart-lines li")).to_have_count(1)
    assert agent.post(f"{server.url}/api/sessions/{session_id}/payment", timeout=20).status_code == 200

    expect(page.locator("#payment")).to_have_attribute("data-mode", "live")
    expect(page.locator("#processor-card")).to_be_visible()
    expect(page.locator("#payment-demo-note")).to_be_hidden()  # real money here
    assert library_requests == ["https://js.stripe.com/v3/"]
    [intent] = processor.intents.values()
    calls = page.evaluate("window.processorCalls")
    assert calls[:2] == [
        {"call": "Stripe", "key": "pk_test_kiosk", "options": {"stripeAccount": ACCOUNT}},
        {"call": "create", "type": "card"},
    ]

    page.click("#pay")  # the library says the card is declined: shown at once, still paying
    expect(page.locator("#payment")).to_have_attribute("data-state", "declined")
    expect(page.locator("#payment-error")).to_have_text("Card declined, try another card.")

    page.click("#pay")  # accepted for processing: the kiosk waits for the service's word
    expect(page.locator("#payment-state")).to_have_text("Confirming your payment…")
    confirms = [call for call in page.evaluate("window.processorCalls") if call["call"] == "confirm"]
    assert confirms == [{"call": "confirm", "secret": intent["client_secret"], "card": True}] * 2
    expect(page.locator("body")).to_have_attribute("data-screen", "session")

    SignedEvents(url=server.url, processor=processor).processor_event("payment_intent.succeeded", intent["id"])
    expect(page.locator("body")).to_have_attribute("data-screen", "thanks")
    expect(page.locator("#order-number")).not_to_be_empty()
    expect(page.locator("#thanks-demo-note")).to_be_hidden()
    assert page.evaluate("window.processorCalls")[-1] == {"call": "destroy"}  # the card field is gone
    assert_no_console_errors(page)
