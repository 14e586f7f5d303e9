"""`/`: links to the kiosk app, the agent dashboard, the owner panel and the API docs; outside
production the demo credentials seed_demo made and the demo payments notice; in production only the
links."""

import io
import re

from django.core.management import call_command
from django.test import Client

from apps.billing.models import CardReader

LINKS = ("/kiosk/", "/agent/", "/panel/", "/api/docs/")


def _links(html: str) -> set[str]:
    return set(re.findall(r'href="([^"]+)"', html))


def test_the_landing_page_links_every_surface(db):
    page = Client().get("/")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    assert set(LINKS) <= _links(page.content.decode())
    assert "Demo payments: no money moves." in page.content.decode()  # no processor key in tests
    assert "None exist yet" in page.content.decode()


def test_after_seed_demo_it_says_which_credentials_open_which(db):
    call_command("seed_demo", stdout=io.StringIO())
    html = Client().get("/").content.decode()
    html = html[html.index('<ul id="surfaces">') :]
    agents = html[html.index('href="/agent/"') : html.index('href="/panel/"')]
    panel = html[html.index('href="/panel/"') : html.index('href="/api/docs/"')]
    assert "agent1@burgers.demo.test" in agents and "agent@pool.demo.test" in agents
    assert "owner@burgers.demo.test" in panel and "owner@noodles.demo.test" in panel
    assert "agent1@burgers.demo.test" not in panel
    assert "demo-password-1" in html and "admin@demo.test" in html


def test_in_production_it_only_links(db, settings):
    call_command("seed_demo", stdout=io.StringIO())
    settings.PRODUCTION = True
    settings.DEMO_PROCESSOR = False
    html = Client().get("/").content.decode()
    assert set(LINKS) <= _links(html)
    assert "demo-password-1" not in html and ".demo.test" not in html and "no money moves" not in html


def test_the_landing_page_is_read_only(db):
    assert Client().post("/").status_code == 405
    assert Client().head("/").status_code == 200


def test_it_says_which_demo_agent_speaks_which_language_and_that_signing_in_makes_it_available(db):
    call_command("seed_demo", stdout=io.StringIO())
    html = Client().get("/").content.decode()
    agents = html[html.index('<ul id="demo-agents">') :]
    agents = agents[: agents.index("</ul>")]
    speaks = dict(re.findall(r"<li><code>([^<]+)</code> — speaks ([^<]+)</li>", agents))
    assert speaks == {
        "agent1@burgers.demo.test": "English",
        "agent2@burgers.demo.test": "Spanish",
        "agent1@noodles.demo.test": "English",
        "agent2@noodles.demo.test": "English, French",
        "agent@pool.demo.test": "English, Spanish",
    }
    steps = html[html.index('<ol id="demo-steps">') : html.index("</ol>")]
    assert "<code>agent1@burgers.demo.test</code> (English)" in steps
    assert "signing in makes the agent Available" in steps


def test_it_links_the_kitchen_display_and_the_order_board_and_says_how_to_open_them(db):
    call_command("seed_demo", stdout=io.StringIO())
    html = Client().get("/").content.decode()
    assert {"/kitchen/", "/board/"} <= _links(html)
    screens = html[html.index('href="/kitchen/"') : html.index('href="/api/docs/"')]
    assert 'href="/board/"' in screens
    assert "signed in to the owner panel (<code>owner@burgers.demo.test</code>)" in screens
    assert "display link made on the panel's Displays page" in screens
    for path in ("/kitchen/", "/board/"):
        assert Client().get(path).status_code == 200


def test_it_says_where_demo_emails_go(db, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = settings.BASE_DIR / "var" / "mail"
    html = Client().get("/").content.decode()
    assert '<code id="demo-mail">var/mail/</code>' in html
    settings.PRODUCTION = True
    settings.DEMO_PROCESSOR = False
    assert "var/mail" not in Client().get("/").content.decode()


def test_it_says_to_open_the_readers_page_beside_the_kiosk(db):
    assert "register a reader for it on the owner panel" in Client().get("/").content.decode()
    call_command("seed_demo", stdout=io.StringIO())
    html = Client().get("/").content.decode()
    readers = html[html.index('<p id="demo-readers">') :]
    readers = readers[: readers.index("</p>")]
    pages = {f"/demo-processor/readers/{reader.reader_id}/" for reader in CardReader.objects.all()}
    assert len(pages) == 2 and pages <= _links(readers)
    assert "Front counter: Front counter reader" in readers
