"""Yesterday's screens, walked on the real `make run` service in a few minutes: the kiosk's words
when the reader refuses the agent's send (English, Spanish, after a reload), the payment once the
reader is back, the kiosk's server-timeout prompt and its extension, and the owner panel's Reports
page ("Agents' load"). The same steps end capacity.py, which takes long on a loaded machine.

    make run PORT=8731      # in one terminal
    .venv/bin/python scripts/walks/screens.py --base-url http://127.0.0.1:8731
"""

from __future__ import annotations

import re
import time

from capacity import AGENT, AGENT_VIEW, KIOSK_VIEW, OWNER, reader_set_online
from playwright.sync_api import expect
from walk import DEMO_PASSWORD, Walk, agent_clean_slate, covered, kiosk_code, main, pair_kiosk, reader_page_of


def walk_screens(walk: Walk) -> None:
    name = f"Kiosk R {time.strftime('%H%M%S')}"
    landing = walk.open("landing", "/", (1280, 900))
    with walk.step("A kiosk pairs with a new code from / (it gets a demo reader)"):
        code = kiosk_code(walk, landing, renew=True)
        kiosk = walk.open("kiosk", "/kiosk/", KIOSK_VIEW, media=True)
        pair_kiosk(kiosk, code, name)
        reader_url = reader_page_of(walk, landing, name)
    reader_id = reader_url.rstrip("/").rsplit("/", 1)[-1]

    agent = walk.open("agent", "/agent/", AGENT_VIEW, media=True)
    with walk.step(f"The agent signs in as {AGENT}", agent, "agent"):
        agent.fill("#signin-email", AGENT)
        agent.fill("#signin-password", DEMO_PASSWORD)
        agent.click("#signin-submit")
        expect(agent.locator("#app")).to_be_visible()
        if agent_clean_slate(walk, agent):
            agent.reload()
            expect(agent.locator("#app")).to_be_visible()
            walk.console["agent"].clear()  # what the clean-up caused
        expect(agent.locator("#agent-status")).to_have_attribute("data-status", "available")

    with walk.step("The customer starts, the agent accepts (Alt+A) and adds Fries", kiosk, "kiosk-session"):
        kiosk.click("#start")
        expect(agent.locator("#incoming li", has_text=name)).to_be_visible()
        agent.keyboard.press("Alt+KeyA")
        expect(agent.locator("#session-title")).to_contain_text(name)
        agent.locator("button.menu-item[data-item-id]", has_text="Fries").first.click()
        expect(kiosk.locator("#cart-lines li")).to_have_count(1)
        expect(agent.locator("#cart-lines")).to_have_attribute("data-saving", "false")

    with walk.step("The reader unplugged, the agent sends: the words on both", kiosk, "kiosk-refused"):
        reader_set_online(reader_id, False)
        agent.click("#send-payment")
        expect(agent.locator("#cart-error")).to_contain_text("offline")
        expect(kiosk.locator("#reader-refusal")).to_be_visible()
        walk.note(f"kiosk: {kiosk.locator('#reader-refusal').inner_text()!r}")
        walk.note(f"agent: {agent.locator('#cart-error').inner_text()!r}")
        walk.check(not covered(kiosk), f"kiosk: controls covered: {covered(kiosk)}")
    walk.shot(agent, "agent-refused")
    with walk.step("In Spanish, and after a reload, the refusal is still said", kiosk, "kiosk-refused-es"):
        kiosk.click("button.language[data-locale='es-ES']")
        walk.note(f"kiosk es: {kiosk.locator('#reader-refusal').inner_text()!r}")
        kiosk.reload()
        expect(kiosk.locator("#reader-refusal")).to_be_visible()
        walk.note(f"kiosk es, reloaded: {kiosk.locator('#reader-refusal').inner_text()!r}")

    with walk.step("The reader back, the agent sends again; the card is approved", kiosk, "kiosk-thanks"):
        reader_set_online(reader_id, True)
        agent.click("#send-payment")
        expect(kiosk.locator("#payment")).to_have_attribute("data-method", "card_present")
        expect(kiosk.locator("#reader-refusal")).to_be_hidden()
        reader = walk.open("reader", reader_url, (900, 700))
        expect(reader.locator("[data-screen='holding']")).to_be_visible()
        reader.click("button[data-card='approved']")
        expect(kiosk.locator("body")).to_have_attribute("data-screen", "thanks")
    with walk.step("The agent signs out", agent):
        agent.click("#signout")
        expect(agent.locator("#signin-email")).to_be_visible()

    with walk.step("The next customer waits: the server's timeout is warned", kiosk, "kiosk-timeout"):
        # The warning comes warning_seconds ahead of SESSION_PENDING_TIMEOUT (180 s): a long lead
        # shows it at once instead of in 160 s.
        kiosk.goto("/kiosk/?warning_seconds=175")
        expect(kiosk.locator("body")).to_have_attribute("data-screen", "attract")
        kiosk.click("button.language[data-locale='en-US']")
        kiosk.click("#start")
        expect(kiosk.locator("body")).to_have_attribute("data-screen", "waiting")
        expect(kiosk.locator("#still-there")).to_be_visible()
        walk.note(f"prompt: {' '.join(kiosk.locator('#still-there').inner_text().split())!r}")
    with walk.step("One tap extends it (the server's whole time again); the customer cancels", kiosk):
        with kiosk.expect_response(lambda r: r.url.endswith("/timeout") and r.request.method == "POST") as extended:
            kiosk.click("#still-there-yes")
        walk.check(extended.value.ok, f"extending answered {extended.value.status}")
        walk.note(f"extended: {extended.value.json().get('seconds_left')} s left")
        expect(kiosk.locator("#still-there")).to_be_hidden()
        kiosk.click("#cancel-waiting")
        expect(kiosk.locator("body")).to_have_attribute("data-screen", "attract")

    panel = walk.open("panel", "/panel/login", (1440, 1000))
    with walk.step("The owner's Reports page: the Agents' load table", panel, "panel-reports"):
        panel.fill("#id_email", OWNER)
        panel.fill("#id_password", DEMO_PASSWORD)
        panel.click("form button[type='submit']")
        expect(panel).not_to_have_url(re.compile(r"/login"))
        panel.goto("/panel/reports")
        table = panel.locator("#report-load")
        table.scroll_into_view_if_needed()
        for row in table.locator("tbody tr").all():
            walk.note(f"Agents' load: {' | '.join(row.inner_text().split(chr(9)))}")


if __name__ == "__main__":
    main("screens", __doc__ or "", walk_screens)
