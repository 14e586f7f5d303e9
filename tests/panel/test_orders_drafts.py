"""Draft and abandoned orders are findable in the panel and the list's number gaps are explained;
the orders table is usable on a phone."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests import factories
from tests.panel.conftest import sign_in


@pytest.fixture
def orders(business):
    kiosk = factories.KioskFactory(business=business)
    done = factories.SessionFactory(kiosk=kiosk, status="completed", ended_at=timezone.now())
    paid = factories.OrderFactory(session=done, number="1", status="confirmed")
    live = factories.OrderFactory(
        session=factories.SessionFactory(kiosk=kiosk, status="active"), number="2", status="draft"
    )
    ended = factories.SessionFactory(kiosk=kiosk, status="abandoned", ended_at=timezone.now())
    abandoned = factories.OrderFactory(session=ended, number="3", status="draft")
    return paid, live, abandoned


def numbers(response) -> list[str]:
    return [order.number for order in response.context["page"]]


def test_the_draft_filter_finds_drafts(owner_client, orders):
    assert numbers(owner_client.get("/panel/orders?status=draft")) == ["3", "2"]


def test_abandoned_carts_and_every_order(owner_client, orders):
    assert numbers(owner_client.get("/panel/orders?status=abandoned")) == ["3"]
    page = owner_client.get("/panel/orders?status=all")
    assert numbers(page) == ["3", "2", "1"]
    html = page.content.decode()
    assert "Abandoned cart" in html and "Draft (in session)" in html


def test_the_default_list_explains_its_gaps(owner_client, orders):
    page = owner_client.get("/panel/orders")
    assert numbers(page) == ["1"]
    note = page.content.decode()
    assert "Not listed: 2 draft carts (1 abandoned" in note
    assert "numbers missing below are these drafts" in note
    assert 'href="?status=all"' in note


def test_another_owners_drafts_are_not_counted(owner_client, orders, other_business):
    factories.OrderFactory(session=factories.SessionFactory(kiosk=factories.KioskFactory(business=other_business)))
    assert owner_client.get("/panel/orders").context["drafts"] == {"total": 2, "abandoned": 1}
    assert numbers(owner_client.get("/panel/orders?status=all")) == ["3", "2", "1"]


@pytest.mark.live
def test_the_orders_table_fits_a_phone(page, panel_owner, orders):
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, panel_owner.email)
    page.goto("/panel/orders?status=all")
    expect(page.locator("#order-table tbody tr")).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for label in ("Number", "Kiosk", "Status", "Total", "Created"):
        cell = page.locator(f"#order-table tbody tr >> nth=0 >> td[data-label={label}]")
        box = cell.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, (label, box)
    page.console_errors.assert_none()
