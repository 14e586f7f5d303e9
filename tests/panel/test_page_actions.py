"""What each panel action does, through the test client: the service ran and the page says so."""

from datetime import timedelta

from django.utils import timezone

from apps.accounts.models import Owner, PersonalAccessToken, SealedTotpDevice, User
from apps.billing.models import OwnerBilling
from apps.kiosks.models import Kiosk, PairingCode
from apps.menu.models import Catalog, MenuItem, ModifierGroup, ModifierOption
from apps.orders.models import Order
from apps.webhooks.models import WebhookSubscription
from tests import factories
from tests.conftest import kiosk_client_for
from tests.panel.objects import tenant_objects
from tests.panel.support import messages_of


def test_pairing_code_is_shown_once(owner_client, business):
    first = owner_client.post("/panel/kiosks/pairing-code", {"business": business.pk}, follow=True)
    assert first.context["pairing"]["business"] == business.name
    assert len(first.context["pairing"]["code"]) == 6 and PairingCode.objects.filter(business=business).count() == 1
    assert owner_client.get("/panel/kiosks").context["pairing"] is None


def test_pairing_code_for_another_owners_business_is_refused(owner_client, other_business):
    response = owner_client.post("/panel/kiosks/pairing-code", {"business": other_business.pk}, follow=True)
    assert "Choose one of your businesses" in messages_of(response)
    assert not PairingCode.objects.exists()


def test_rename_and_unpair(owner_client, kiosk):
    owner_client.post(f"/panel/kiosks/{kiosk.pk}/rename", {"name": "Patio", "location": "Garden"})
    kiosk.refresh_from_db()
    assert kiosk.name == "Patio" and kiosk.location == "Garden"
    owner_client.post(f"/panel/kiosks/{kiosk.pk}/unpair")
    kiosk.refresh_from_db()
    assert not kiosk.is_paired
    assert owner_client.post(f"/panel/kiosks/{kiosk.pk}/unpair").status_code == 404  # already gone


def test_the_kiosks_and_dashboard_pages_show_the_last_request_heard(owner_client, kiosk):
    """The row is written at most every 45 s; the pages show when the kiosk was last heard."""
    kiosk_client = kiosk_client_for(kiosk)
    assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 200  # the row's write is done
    an_hour_ago = timezone.now() - timedelta(hours=1)
    Kiosk.objects.filter(pk=kiosk.pk).update(last_seen_at=an_hour_ago)
    assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 200  # heard, not written
    for path in ("/panel/kiosks", "/panel/"):
        [shown] = owner_client.get(path).context["kiosks"]
        assert timezone.now() - shown.last_seen_at < timedelta(seconds=10), path
    assert Kiosk.objects.get(pk=kiosk.pk).last_seen_at == an_hour_ago


def test_agents_are_created_disabled_and_their_2fa_reset(owner_client, owner):
    created = owner_client.post(
        "/panel/agents", {"name": "Ann", "email": "ann@example.test", "password": "long-password-1"}, follow=True
    )
    assert "ann@example.test created" in messages_of(created)
    agent = User.objects.get(email="ann@example.test")
    assert agent.is_agent and agent.owner == owner
    duplicate = owner_client.post("/panel/agents", {"name": "A", "email": "ann@example.test", "password": "x" * 12})
    assert "already used" in duplicate.content.decode()

    factories.PersonalAccessTokenFactory(user=agent)
    factories.TOTPDeviceFactory(user=agent)
    owner_client.post(f"/panel/agents/{agent.pk}/reset-2fa")
    assert not SealedTotpDevice.objects.filter(user=agent).exists()
    owner_client.post(f"/panel/agents/{agent.pk}/disable")
    agent.refresh_from_db()
    assert not agent.is_active
    assert not PersonalAccessToken.objects.filter(user=agent, revoked_at=None).exists()


def test_a_panel_user_is_not_an_agent_to_disable(owner_client, panel_manager):
    assert owner_client.post(f"/panel/agents/{panel_manager.pk}/disable").status_code == 404


def test_menu_edits(manager_client, business):
    objects = tenant_objects(business)
    created = manager_client.post("/panel/menu", {"business": business.pk, "name": "Winter"}, follow=True)
    winter = Catalog.objects.get(name="Winter")
    assert created.redirect_chain[-1][0] == f"/panel/menu/catalogs/{winter.pk}"
    manager_client.post(f"/panel/menu/catalogs/{winter.pk}", {"name": "Soups", "sort_order": 0})
    soups = winter.categories.get()
    item_page = manager_client.post(
        f"/panel/menu/categories/{soups.pk}/items/new",
        {"name": "Miso", "price": "4.50", "active": "on", "sort_order": 0, "stock": 5, "track_stock": "on"},
    )
    miso = MenuItem.objects.get(name="Miso")
    assert item_page["Location"] == f"/panel/menu/items/{miso.pk}"
    assert (miso.price_cents, miso.track_stock, miso.stock) == (450, True, 5)

    manager_client.post(f"/panel/menu/items/{miso.pk}/groups", {"name": "Size", "min": 1, "max": 1, "required": "on"})
    group = ModifierGroup.objects.get(item=miso)
    manager_client.post(f"/panel/menu/groups/{group.pk}/options", {"name": "Large", "price": "1.25"})
    assert ModifierOption.objects.get(group=group).price_cents == 125
    bad = manager_client.post(f"/panel/menu/items/{miso.pk}/groups/{group.pk}", {"name": "Size", "min": 3, "max": 2})
    assert bad.status_code == 302
    group.refresh_from_db()
    assert group.min == 1

    manager_client.post(f"/panel/menu/catalogs/{winter.pk}/activate")
    winter.refresh_from_db()
    objects.catalog.refresh_from_db()
    assert winter.is_active and not objects.catalog.is_active

    manager_client.post(f"/panel/menu/items/{miso.pk}", {"action": "delete"})
    assert not MenuItem.objects.filter(pk=miso.pk).exists()


def test_order_list_filters(owner_client, business):
    objects = tenant_objects(business)
    assert objects.order in owner_client.get("/panel/orders", {"status": "confirmed"}).context["page"].object_list
    assert not owner_client.get("/panel/orders", {"status": "refunded"}).context["page"].object_list
    assert not owner_client.get("/panel/orders", {"number": "999"}).context["page"].object_list


def test_an_order_moves_and_a_bad_move_is_reported(manager_client, business):
    order = tenant_objects(business).order
    manager_client.post(f"/panel/orders/{order.pk}/status", {"status": "ready"})
    assert Order.objects.get(pk=order.pk).status == "ready"
    back = manager_client.post(f"/panel/orders/{order.pk}/status", {"status": "preparing"}, follow=True)
    assert "cannot become preparing" in messages_of(back)


def test_refund_needs_the_confirmation_box(manager_client, business):
    order = tenant_objects(business).order
    response = manager_client.post(f"/panel/orders/{order.pk}/refund", {"reason": "cold"})
    assert response.status_code == 200 and response.context["form"].errors["confirm"]


def test_webhook_create_keeps_the_secret_for_one_page(owner_client, owner):
    response = owner_client.post("/panel/webhooks", {"url": "https://example.test/hook", "events": ["order.created"]})
    subscription = WebhookSubscription.objects.get(owner=owner)
    assert response["Location"] == f"/panel/webhooks/{subscription.pk}"
    assert owner_client.get(response["Location"]).context["secret"] == subscription.signing_secret()
    assert owner_client.get(response["Location"]).context["secret"] is None
    invalid = owner_client.post("/panel/webhooks", {"url": "ftp://example.test/", "events": []})
    assert invalid.status_code == 200 and WebhookSubscription.objects.count() == 1


def test_webhook_delete(owner_client, business):
    subscription = tenant_objects(business).subscription
    owner_client.post(f"/panel/webhooks/{subscription.pk}/delete")
    assert not WebhookSubscription.objects.filter(pk=subscription.pk).exists()


def test_settings_are_saved_through_the_service(manager_client, business):
    response = manager_client.post(
        "/panel/settings",
        {
            "business_id": business.pk,
            "name": "New name",
            "logo_url": "https://example.test/logo.png",
            "currency": "EUR",
            "tax_rate": "8.75",
            "primary_color": "#112233",
            "attract_message": "Hello",
            "session_recording": "on",
        },
    )
    assert response.status_code == 302
    business.refresh_from_db()
    assert (business.name, business.currency, business.session_recording) == ("New name", "EUR", True)
    assert business.tax_rate_bps == 875  # typed as a percentage, not in basis points
    bad = manager_client.post("/panel/settings", {"business_id": business.pk, "name": "x", "currency": "euro"})
    assert bad.status_code == 200 and bad.context["form"].errors


def test_settings_of_another_owners_business_is_not_found(manager_client, business, other_business):
    assert manager_client.get("/panel/settings", {"business": other_business.pk}).status_code == 404
    assert manager_client.post("/panel/settings", {"business_id": other_business.pk, "name": "x"}).status_code == 404
    assert manager_client.get("/panel/settings").context["business"] == business


def test_billing_shows_plan_and_the_dunning_banner(owner_client, owner, manager_client):
    factories.OwnerBillingFactory(
        owner=owner, plan="pro", dunning=True, account_id="acct_1", charges_enabled=False, payouts_enabled=False
    )
    page = owner_client.get("/panel/billing")
    assert page.context["rate_cents"] == 35 and b'id="dunning-banner"' in page.content
    assert b"Ask the account owner" in manager_client.get("/panel/").content


def test_billing_onboarding_redirects_to_the_processor(owner_client, owner, processor):
    response = owner_client.post("/panel/billing/onboarding")
    account_id = OwnerBilling.objects.get(owner=owner).account_id
    assert response.status_code == 302 and response["Location"] == f"https://connect.example/setup/{account_id}"


def test_billing_onboarding_without_a_processor_says_so(owner_client, settings):
    settings.PROCESSOR_SECRET_KEY = ""  # no key and no demo processor (it is on in local and test runs)
    response = owner_client.post("/panel/billing/onboarding", follow=True)
    assert "Payments are not configured" in messages_of(response)


def test_dashboard_counts_only_this_owner(owner_client, business, other_business):
    tenant_objects(business)
    tenant_objects(other_business)
    page = owner_client.get("/panel/")
    assert page.context["today"]["sessions"] == 1 and page.context["today"]["orders"] == 1
    assert [kiosk.business_id for kiosk in page.context["kiosks"]] == [business.pk]
    assert page.context["live"] is None  # WSGI test client: no WebSocket to offer


def test_sessions_page_lists_cost_and_waiting(owner_client, business, agent):
    factories.SessionFactory(kiosk=factories.KioskFactory(business=business))
    rows = owner_client.get("/panel/sessions").context["rows"]
    assert len(rows) == 1 and rows[0]["cost_cents"] is None and rows[0]["waiting_seconds"] is None
    assert Kiosk.objects.count() == 1


def test_a_suspended_owner_sees_a_banner(owner_client, owner):
    Owner.objects.filter(pk=owner.pk).update(suspended=True)
    assert b'id="suspended-banner"' in owner_client.get("/panel/").content
