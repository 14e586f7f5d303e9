"""The services the panel added to the apps: kiosk rename, agent create and 2FA reset, business
settings, TOTP enrolment, panel sign-in, and menu edits."""

import pytest

from apps.accounts import services as account_services
from apps.accounts.models import SealedTotpDevice
from apps.core.errors import DomainError
from apps.kiosks import services as kiosk_services
from apps.menu import services as menu_services
from apps.menu.models import Catalog, MenuItem
from tests import factories
from tests.panel.support import current_code


def test_kiosk_rename_keeps_the_device_token(kiosk):
    token_hash = kiosk.token_hash
    kiosk_services.kiosk_rename(kiosk=kiosk, name="  Patio  ", location="Back garden")
    kiosk.refresh_from_db()
    assert (kiosk.name, kiosk.location, kiosk.token_hash) == ("Patio", "Back garden", token_hash)
    with pytest.raises(DomainError) as blank:
        kiosk_services.kiosk_rename(kiosk=kiosk, name="   ", location="")
    assert blank.value.code == "VALIDATION_ERROR"


def test_agent_create_makes_an_offline_agent_of_the_owner(owner):
    agent = account_services.agent_create(owner=owner, name="Ann", email="Ann@Example.test", password="long-password-1")
    assert agent.is_agent and agent.owner == owner and agent.agent_status == "offline" and not agent.panel_role
    assert agent.email == "ann@example.test" and agent.check_password("long-password-1")
    with pytest.raises(DomainError) as taken:
        account_services.agent_create(owner=owner, name="Ann 2", email="ANN@example.test", password="long-password-1")
    assert taken.value.details == {"email": ["This email is already used."]}


def test_agent_reset_two_factor_removes_devices_and_open_challenges(agent):
    factories.TOTPDeviceFactory(user=agent)
    result = account_services.agent_login(email=agent.email, password=factories.PASSWORD, remember=False, ip="1.2.3.4")
    assert result.challenge is not None
    assert account_services.agent_reset_two_factor(agent=agent) == 1
    result.challenge.refresh_from_db()
    assert result.challenge.used_at is not None
    again = account_services.agent_login(email=agent.email, password=factories.PASSWORD, remember=False, ip="1.2.3.4")
    assert again.user == agent


def test_business_update_validates_with_the_models_rules(business):
    account_services.business_update(business=business, primary_color="#112233", session_recording=True)
    business.refresh_from_db()
    assert business.primary_color == "#112233" and business.session_recording
    with pytest.raises(DomainError) as bad:
        account_services.business_update(business=business, currency="dollars", tax_rate_bps=20000)
    assert set(bad.value.details) == {"currency", "tax_rate_bps"}
    business.refresh_from_db()
    assert business.currency == "USD"
    with pytest.raises(ValueError):
        account_services.business_update(business=business, order_sequence=5)


def test_totp_enrolment_needs_a_correct_code(owner):
    user = factories.PanelUserFactory(owner=owner)
    device = account_services.totp_enrol_start(user=user)
    assert not device.confirmed
    wrong = f"{(int(current_code(device)) + 1) % 10**6:06d}"
    assert not account_services.totp_enrol_confirm(user=user, code=wrong)
    device = account_services.totp_enrol_start(user=user)  # a fresh start replaces the pending one
    assert SealedTotpDevice.objects.filter(user=user).count() == 1
    assert account_services.totp_enrol_confirm(user=user, code=current_code(device))
    assert SealedTotpDevice.objects.get(user=user).confirmed
    account_services.totp_disable(user=user)
    assert not SealedTotpDevice.objects.filter(user=user).exists()


def test_panel_login_is_for_owners_and_managers_only(owner, agent):
    manager = factories.PanelUserFactory(owner=owner, panel_role="manager")
    assert account_services.panel_login(email=manager.email, password=factories.PASSWORD, ip="1.1.1.1").user == manager
    with pytest.raises(DomainError) as as_agent:
        account_services.panel_login(email=agent.email, password=factories.PASSWORD, ip="1.1.1.1")
    assert as_agent.value.code == "FORBIDDEN" and "agent dashboard" in as_agent.value.message
    with pytest.raises(DomainError) as wrong:
        account_services.panel_login(email=manager.email, password="nope", ip="1.1.1.1")
    assert wrong.value.code == "INVALID_CREDENTIALS"


def test_panel_login_counts_failures_then_refuses(owner, settings):
    manager = factories.PanelUserFactory(owner=owner, panel_role="manager")
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        with pytest.raises(DomainError):
            account_services.panel_login(email=manager.email, password="nope", ip="9.9.9.9")
    with pytest.raises(DomainError) as limited:
        account_services.panel_login(email=manager.email, password=factories.PASSWORD, ip="9.9.9.9")
    assert limited.value.code == "RATE_LIMITED"


def test_panel_login_with_totp_returns_a_challenge(owner):
    user = factories.PanelUserFactory(owner=owner)
    factories.TOTPDeviceFactory(user=user)
    result = account_services.panel_login(email=user.email, password=factories.PASSWORD, ip="1.1.1.1")
    assert result.user is None and result.challenge.user == user


def test_catalog_activate_switches_the_active_catalog(business):
    first = factories.CatalogFactory(business=business, is_active=True)
    second = menu_services.catalog_create(business=business, name="Winter")
    assert not second.is_active
    menu_services.catalog_activate(catalog=second)
    assert list(Catalog.objects.filter(business=business, is_active=True)) == [second]
    first.refresh_from_db()
    assert not first.is_active


def test_menu_item_save_validates_and_saves(business):
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    item = menu_services.menu_item_save(
        item=MenuItem(category=category), name="Soup", price_cents=450, track_stock=True, stock=3, low_stock_threshold=1
    )
    assert MenuItem.objects.get(pk=item.pk).price_cents == 450
    with pytest.raises(DomainError) as bad:
        menu_services.menu_item_save(item=item, allergens=["gluten", "chocolate"])
    assert "allergens" in bad.value.details


def test_modifier_group_min_may_not_exceed_max(business):
    item = factories.MenuItemFactory(
        category=factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    )
    group = factories.ModifierGroupFactory(item=item)
    with pytest.raises(DomainError) as bad:
        menu_services.modifier_group_save(group=group, min=3, max=2)
    assert bad.value.details == {"min": ["Must not exceed max."]}
    menu_services.modifier_group_save(group=group, name="Sauces", min=1, max=3, required=True)
    group.refresh_from_db()
    assert (group.name, group.min, group.max, group.required) == ("Sauces", 1, 3, True)
