"""Every panel page on the seeded demo, as its owner sees it in Chromium: it renders, and the
browser reports no console error. PANEL_SCREENSHOTS=1 also refreshes docs/screenshots/."""

import os
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from apps.accounts.models import Business, User
from apps.kiosks.models import Kiosk
from apps.menu.models import Catalog, MenuItem
from apps.orders.models import Order
from apps.owner_api import services as key_services
from apps.webhooks import services as webhook_services
from tests.panel.conftest import sign_in
from tests.panel.support import demo_activity
from tests.support.processes import ROOT

pytestmark = pytest.mark.live
SCREENSHOTS = ROOT / "docs" / "screenshots"
DEMO_OWNER = "owner@burgers.demo.test"
DEMO_PASSWORD = "demo-password-1"


@pytest.fixture
def demo(transactional_db):
    call_command("seed_demo", stdout=StringIO())
    business = Business.objects.get(name="Burger Barn")
    kiosk = Kiosk.objects.get(business=business, unpaired_at=None)
    agents = list(User.objects.filter(owner=business.owner, is_agent=True).order_by("pk"))
    demo_activity(business, kiosk, agents)
    webhook_services.subscription_create(
        owner=business.owner, url="https://hooks.example.test/kiosk", events=["order.created", "kiosk.offline"]
    )
    key_services.owner_api_key_create(
        owner=business.owner, name="Till integration", scopes=["orders:read", "orders:write"], created_by=None
    )
    return business


def shot(page, name: str) -> None:
    if os.environ.get("PANEL_SCREENSHOTS"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=False)


def test_every_page_renders_for_the_demo_owner_without_console_errors(page, demo):
    catalog = Catalog.objects.get(business=demo, is_active=True)
    item = MenuItem.objects.filter(category__catalog=catalog).exclude(modifier_groups=None).first()
    order = Order.objects.filter(business=demo).order_by("-created_at").first()
    subscription = demo.owner.webhook_subscriptions.get(url="https://hooks.example.test/kiosk")
    sign_in(page, DEMO_OWNER, DEMO_PASSWORD)
    expect(page.locator("h1")).to_have_text("Dashboard")
    shot(page, "dashboard")
    pages = [
        ("/panel/kiosks", "Kiosks"),
        ("/panel/agents", "Agents"),
        ("/panel/menu", "Menu"),
        (f"/panel/menu/catalogs/{catalog.pk}", catalog.name),
        (f"/panel/menu/items/{item.pk}", item.name),
        ("/panel/orders", "Orders"),
        (f"/panel/orders/{order.pk}", f"Order #{order.number}"),
        (f"/panel/orders/{order.pk}/refund", f"Refund order #{order.number}"),
        ("/panel/sessions", "Sessions"),
        ("/panel/webhooks", "Webhooks"),
        (f"/panel/webhooks/{subscription.pk}", "Webhook"),
        ("/panel/api-keys", "API keys"),
        ("/panel/billing", "Billing"),
        ("/panel/settings", "Settings"),
        ("/panel/account/two-factor", "Two-factor sign-in"),
    ]
    for path, heading in pages:
        response = page.goto(path)
        assert response.status == 200, path
        expect(page.locator("main h1")).to_contain_text(heading)
        if path == "/panel/orders":
            shot(page, "orders")
        if path == f"/panel/menu/catalogs/{catalog.pk}":
            shot(page, "menu")
    page.console_errors.assert_none()


def test_the_panel_fits_a_phone(page, demo):
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, DEMO_OWNER, DEMO_PASSWORD)
    for path in ("/panel/", "/panel/orders", "/panel/kiosks"):
        page.goto(path)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px"
    page.console_errors.assert_none()
