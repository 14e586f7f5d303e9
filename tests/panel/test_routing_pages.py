"""The panel's routing parts: an agent's languages on the Agents page, the owner's routing
settings on the Settings page (server-rendered forms; the services validate)."""

import re

from apps.accounts.models import User
from apps.routing.models import RoutingSettings
from apps.routing.routing_settings import routing_for_owner
from tests import factories
from tests.panel.support import messages_of

ROUTING = {
    "routing-offer_size": 2,
    "routing-offer_seconds": 20,
    "routing-any_language_after_seconds": 45,
    "routing-misses_before_break": 3,
    "routing-self_service_after_seconds": 90,
}


def test_an_agent_is_created_with_languages_and_they_are_changed(owner_client, owner):
    created = owner_client.post(
        "/panel/agents",
        {"name": "Ana", "email": "ana@example.test", "password": "long-password-1", "languages": "es, EN"},
        follow=True,
    )
    assert created.status_code == 200
    ana = User.objects.get(email="ana@example.test")
    assert ana.languages == ["es", "en"]
    assert 'value="es, en"' in created.content.decode()
    changed = owner_client.post(f"/panel/agents/{ana.pk}/languages", {"languages": "fr"}, follow=True)
    assert "serves fr" in messages_of(changed)
    ana.refresh_from_db()
    assert ana.languages == ["fr"]
    owner_client.post(f"/panel/agents/{ana.pk}/languages", {"languages": ""})
    ana.refresh_from_db()
    assert ana.languages == []


def test_a_bad_language_is_refused_and_nothing_changes(owner_client, owner):
    agent = factories.AgentFactory(owner=owner, languages=["en"])
    refused = owner_client.post(f"/panel/agents/{agent.pk}/languages", {"languages": "english!"}, follow=True)
    assert "not a language code" in messages_of(refused)
    agent.refresh_from_db()
    assert agent.languages == ["en"]
    bad_create = owner_client.post(
        "/panel/agents", {"name": "B", "email": "b@example.test", "password": "long-password-1", "languages": "x1"}
    )
    assert bad_create.status_code == 200
    assert not User.objects.filter(email="b@example.test").exists()  # the agent and its languages, or nothing


def test_another_owners_agent_is_404_and_managers_are_refused(owner_client, manager_client, owner):
    outsider = factories.AgentFactory(languages=["en"])
    assert owner_client.post(f"/panel/agents/{outsider.pk}/languages", {"languages": "es"}).status_code == 404
    mine = factories.AgentFactory(owner=owner)
    assert manager_client.post(f"/panel/agents/{mine.pk}/languages", {"languages": "es"}).status_code == 403
    outsider.refresh_from_db()
    mine.refresh_from_db()
    assert (outsider.languages, mine.languages) == (["en"], [])


def test_routing_settings_show_the_defaults_and_save_per_owner(owner_client, owner, settings):
    settings.ROUTING_OFFER_SIZE = 4
    page = owner_client.get("/panel/settings").content.decode()
    assert 'name="routing-offer_size"' in page and 'value="4"' in page
    saved = owner_client.post("/panel/settings/routing", ROUTING, follow=True)
    assert "Routing settings saved" in messages_of(saved)
    routing = routing_for_owner(owner.pk)
    assert (routing.offer_size, routing.offer_seconds, routing.misses_before_break) == (2, 20, 3)
    other = factories.OwnerFactory()
    assert routing_for_owner(other.pk).offer_size == 4


def test_bad_routing_settings_are_422_and_change_nothing(owner_client, owner):
    for field, value in (("routing-offer_size", 0), ("routing-offer_seconds", 1), ("routing-misses_before_break", "x")):
        response = owner_client.post("/panel/settings/routing", {**ROUTING, field: value})
        assert response.status_code == 422
        assert 'class="errorlist' in response.content.decode() or "errorlist" in response.content.decode()
    assert not RoutingSettings.objects.filter(owner=owner).exists()


def test_the_super_admin_sets_a_platform_agents_languages(admin_client):
    pool_agent = factories.AgentFactory(owner=None, languages=["en"])
    path = f"/admin/accounts/user/{pool_agent.pk}/change/"
    page = admin_client.get(path).content.decode()
    assert 'name="languages"' in page and 'value="en"' in page
    fields = {"email": pool_agent.email, "name": pool_agent.name, "is_agent": "on", "date_joined_0": "2026-01-01"}
    fields |= {"date_joined_1": "00:00:00", "panel_role": ""}
    refused = admin_client.post(path, {**fields, "languages": "en, spanish"})
    assert refused.status_code == 200 and "not a language code" in refused.content.decode()
    saved = admin_client.post(path, {**fields, "languages": "en, es"})
    assert saved.status_code == 302, saved.content.decode()[:2000]
    pool_agent.refresh_from_db()
    assert pool_agent.languages == ["en", "es"]


def test_agents_start_on_break_is_a_routing_setting_off_by_default(owner_client, owner):
    page = owner_client.get("/panel/settings").content.decode()
    assert 'name="routing-agents_start_on_break"' in page and "Agents start on break" in page
    assert routing_for_owner(owner.pk).agents_start_on_break is False
    owner_client.post("/panel/settings/routing", {**ROUTING, "routing-agents_start_on_break": "on"}, follow=True)
    assert routing_for_owner(owner.pk).agents_start_on_break is True
    box = re.search(r'<input type="checkbox" name="routing-agents_start_on_break"[^>]*>', _settings_page(owner_client))
    assert box and " checked" in box.group(0)
    owner_client.post("/panel/settings/routing", ROUTING, follow=True)  # an unticked box is sent as nothing
    assert routing_for_owner(owner.pk).agents_start_on_break is False


def _settings_page(client) -> str:
    return client.get("/panel/settings").content.decode()
