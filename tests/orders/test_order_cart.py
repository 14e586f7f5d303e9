"""POST /api/orders (whole cart, replace semantics) and the kiosk's GET /sessions/{id}/order."""

import pytest

from apps.orders.models import Order, OrderLine
from apps.sessions import services as session_services
from apps.sessions.models import Session
from tests import factories
from tests.conftest import AgentClient


@pytest.fixture
def menu(business):
    """Burger (899) with required Cooking (1 of 2) and optional Extras (0-2: cheese 100, bacon 150);
    Fries (349); a sold-out item; an inactive item; a low-stock item (2 left)."""
    business.tax_rate_bps = 875
    business.save()
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    burger = factories.MenuItemFactory(category=category, name="Burger", price_cents=899)
    cooking = factories.ModifierGroupFactory(item=burger, name="Cooking", required=True, min=1, max=1)
    extras = factories.ModifierGroupFactory(item=burger, name="Extras", required=False, min=0, max=2)
    return {
        "burger": burger,
        "medium": factories.ModifierOptionFactory(group=cooking, name="Medium"),
        "rare": factories.ModifierOptionFactory(group=cooking, name="Rare"),
        "cheese": factories.ModifierOptionFactory(group=extras, name="Cheese", price_cents=100),
        "bacon": factories.ModifierOptionFactory(group=extras, name="Bacon", price_cents=150),
        "egg": factories.ModifierOptionFactory(group=extras, name="Egg", price_cents=120),
        "fries": factories.MenuItemFactory(category=category, name="Fries", price_cents=349),
        "gone": factories.MenuItemFactory(category=category, name="Gone", track_stock=True, stock=0),
        "hidden": factories.MenuItemFactory(category=category, name="Hidden", active=False),
        "scarce": factories.MenuItemFactory(category=category, name="Scarce", track_stock=True, stock=2),
    }


@pytest.fixture
def session(kiosk, agent):
    pending = factories.SessionFactory(kiosk=kiosk)
    return session_services.session_accept(public_id=pending.public_id, agent=agent)


def line(item, quantity=1, options=(), notes=""):
    return {
        "menu_item_id": str(item.pk),
        "quantity": quantity,
        "modifier_option_ids": [str(o.pk) for o in options],
        "notes": notes,
    }


def post_cart(client, session, lines):
    return client.post("/api/orders", {"session_id": session.public_id, "lines": lines})


def test_cart_is_priced_on_the_server(agent_client, session, menu):
    response = post_cart(
        agent_client,
        session,
        [line(menu["burger"], 2, [menu["medium"], menu["cheese"], menu["bacon"]], "no pickles"), line(menu["fries"])],
    )
    assert response.status_code == 200, response.content
    body = response.json()
    # burger: (899 + 100 + 150) x 2 = 2298; fries 349; subtotal 2647; tax 8.75% = 231.6 -> 232
    assert (body["subtotal_cents"], body["tax_cents"], body["total_cents"]) == (2647, 232, 2879)
    assert body["currency"] == "USD" and body["session_id"] == session.public_id
    burger_line, fries_line = body["lines"]
    assert burger_line["menu_item_id"] == str(menu["burger"].pk) and burger_line["name"] == "Burger"
    assert burger_line["quantity"] == 2 and burger_line["unit_price_cents"] == 1149
    assert burger_line["modifiers"] == [
        {"group": "Cooking", "value": "Medium"},
        {"group": "Extras", "value": "Cheese"},
        {"group": "Extras", "value": "Bacon"},
    ]
    assert burger_line["notes"] == "no pickles"
    assert "notes" not in fries_line
    assert body["updated_at"].endswith("Z") and body["order_number"] == "1"


def test_each_post_replaces_the_whole_cart(agent_client, session, menu):
    post_cart(agent_client, session, [line(menu["burger"], 1, [menu["rare"]]), line(menu["fries"], 3)])
    response = post_cart(agent_client, session, [line(menu["fries"], 1)])
    body = response.json()
    assert [(item["name"], item["quantity"]) for item in body["lines"]] == [("Fries", 1)]
    assert body["subtotal_cents"] == 349
    assert OrderLine.objects.count() == 1 and Order.objects.count() == 1
    emptied = post_cart(agent_client, session, []).json()
    assert emptied["lines"] == [] and emptied["total_cents"] == 0


def test_kiosk_sees_the_same_order_object(agent_client, session, menu, kiosk_client):
    empty = kiosk_client.get(f"/api/public/sessions/{session.public_id}/order")
    assert empty.status_code == 200
    assert empty.json()["lines"] == [] and empty.json()["total_cents"] == 0
    assert empty.json()["currency"] == "USD"
    posted = post_cart(agent_client, session, [line(menu["burger"], 1, [menu["medium"]])]).json()
    # The kiosk's order resource adds only the receipt's address and card lines, none before the payment.
    assert kiosk_client.get(f"/api/public/sessions/{session.public_id}/order").json() == {
        **posted,
        "receipt_url": None,
        "receipt_card_lines": [],
    }


def test_order_numbers_are_short_and_unique_per_business(agent, menu, session, kiosk, business):
    first = post_cart(AgentClient(), session, [])  # unauthenticated: refused, no number used
    assert first.status_code == 401
    numbers = []
    for n in range(3):
        agent_client = AgentClient()
        other_agent = factories.AgentFactory(owner=business.owner)
        agent_client.sign_in(other_agent.email)
        other_kiosk = factories.KioskFactory(business=business)
        accepted = session_services.session_accept(
            public_id=factories.SessionFactory(kiosk=other_kiosk).public_id, agent=other_agent
        )
        numbers.append(post_cart(agent_client, accepted, [line(menu["fries"])]).json()["order_number"])
    assert numbers == ["1", "2", "3"]


@pytest.mark.parametrize(
    ("make_line", "reason"),
    [
        (lambda m: {"menu_item_id": "999999", "quantity": 1, "modifier_option_ids": []}, "not on this menu"),
        (lambda m: line(m["hidden"]), "not available"),
        (lambda m: line(m["gone"]), "sold out"),
        (lambda m: line(m["scarce"], 3), "Only 2 of Scarce left"),
        (lambda m: line(m["burger"]), "Cooking: choose at least 1"),
        (lambda m: line(m["burger"], 1, [m["medium"], m["rare"]]), "Cooking: choose at most 1"),
        (lambda m: line(m["burger"], 1, [m["medium"], m["cheese"], m["bacon"], m["egg"]]), "Extras: choose at most 2"),
        (lambda m: line(m["fries"], 1, [m["cheese"]]), "is not an option of Fries"),
        (lambda m: line(m["burger"], 1, [m["medium"], m["medium"]]), "chosen more than once"),
    ],
)
def test_invalid_lines_answer_422_naming_the_line(agent_client, session, menu, make_line, reason):
    response = post_cart(agent_client, session, [line(menu["fries"]), make_line(menu)])
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert list(error["details"]["lines"]) == ["1"]
    assert any(reason in message for message in error["details"]["lines"]["1"]), error
    assert not Order.objects.exists()


def test_option_of_another_businesss_item_is_refused(agent_client, session, menu, other_business):
    foreign_item = factories.MenuItemFactory(
        category=factories.CategoryFactory(catalog=factories.CatalogFactory(business=other_business))
    )
    response = post_cart(agent_client, session, [line(foreign_item)])
    assert response.status_code == 422
    assert "not on this menu" in response.json()["error"]["details"]["lines"]["0"][0]


@pytest.mark.parametrize(
    "bad_line",
    [
        {"menu_item_id": "1", "quantity": 0},
        {"menu_item_id": "1", "quantity": 100},
        {"menu_item_id": "1", "quantity": "many"},
        {"quantity": 1},
        {"menu_item_id": "1", "quantity": 1, "modifier_option_ids": "x"},
    ],
)
def test_malformed_lines_answer_422(agent_client, session, bad_line):
    response = post_cart(agent_client, session, [bad_line])
    assert response.status_code == 422
    assert "lines" in response.json()["error"]["details"]


def test_a_valid_cart_after_an_invalid_one_keeps_nothing_of_it(agent_client, session, menu):
    post_cart(agent_client, session, [line(menu["fries"], 2)])
    assert post_cart(agent_client, session, [line(menu["burger"]), line(menu["fries"], 5)]).status_code == 422
    lines = OrderLine.objects.values_list("name", "quantity")
    assert list(lines) == [("Fries", 2)]


def test_cart_is_locked_during_payment(agent_client, session, menu):
    post_cart(agent_client, session, [line(menu["fries"])])
    Session.objects.filter(pk=session.pk).update(status="payment")
    response = post_cart(agent_client, session, [line(menu["fries"], 2)])
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "ORDER_LOCKED"
    assert OrderLine.objects.get().quantity == 1


def test_cart_of_an_ended_session_is_closed(agent_client, session, menu):
    agent_client.post(f"/api/sessions/{session.public_id}/end", {"reason": "customer_abandoned"})
    response = post_cart(agent_client, session, [line(menu["fries"])])
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "SESSION_ALREADY_ENDED"


def test_only_the_accepting_agent_edits_the_cart(session, menu, owner):
    colleague = AgentClient()
    colleague.sign_in(factories.AgentFactory(owner=owner).email)
    response = post_cart(colleague, session, [line(menu["fries"])])
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "SESSION_NOT_OWNED"


def test_another_owners_agent_gets_404(session, menu, other_business):
    stranger = AgentClient()
    stranger.sign_in(factories.AgentFactory(owner=other_business.owner).email)
    response = post_cart(stranger, session, [line(menu["fries"])])
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "SESSION_NOT_FOUND"


def test_another_kiosks_order_is_not_found(session, other_business, kiosk):
    from tests.conftest import kiosk_client_for

    for other in (factories.KioskFactory(business=kiosk.business), factories.KioskFactory(business=other_business)):
        response = kiosk_client_for(other).get(f"/api/public/sessions/{session.public_id}/order")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "SESSION_NOT_FOUND"
