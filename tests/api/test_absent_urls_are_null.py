"""A URL or location that is not set is stored as "" and answered as null on every surface and in
every real-time body (docs/decisions/api.md "Absent URLs and locations"), as the schema says."""

import json

from apps.routing import offers
from apps.sessions import services as session_services
from tests import factories
from tests.support.realtime import KIOSK_AUTH, ask
from tests.support.schema_conformance import assert_conforms


def _without_location(kiosk):
    kiosk.location = ""
    kiosk.save(update_fields=["location"])
    business = kiosk.business
    assert business.logo_url == ""


def test_the_kiosk_profile_answers_null_logo_and_location(kiosk, kiosk_client):
    _without_location(kiosk)
    body = kiosk_client.get("/api/public/kiosks/me").json()
    assert body["location"] is None and body["business"]["logo_url"] is None
    assert_conforms(body, "KioskProfileOut")


def test_the_incoming_list_the_session_and_the_presence_member_answer_a_null_location(
    kiosk, kiosk_client, agent, agent_client, owner
):
    _without_location(kiosk)
    session = session_services.session_start(kiosk=kiosk, customer_locale="en-US")
    offers.offers_dispatch()  # the router offers it to the agent
    [incoming] = agent_client.get("/api/sessions/incoming").json()["sessions"]
    assert incoming["id"] == session.public_id and incoming["kiosk"]["location"] is None
    joined = ask(kiosk_client, KIOSK_AUTH, f"presence-owner.{owner.pk}")
    member = json.loads(joined.json()["channel_data"])
    assert member["user_info"]["location"] is None
    accepted = session_services.session_accept(public_id=session.public_id, agent=agent)
    current = agent_client.get("/api/sessions/current").json()
    assert current["session"]["id"] == accepted.public_id and current["session"]["kiosk"]["location"] is None


def test_the_menu_answers_a_null_photo(kiosk, agent, agent_client):
    catalog = factories.CatalogFactory(business=kiosk.business)
    factories.MenuItemFactory(category=factories.CategoryFactory(catalog=catalog), photo="")
    session = factories.SessionFactory(kiosk=kiosk)
    session_services.session_accept(public_id=session.public_id, agent=agent)
    [category] = agent_client.get("/api/menu").json()["categories"]
    assert category["menu_items"][0]["photo_url"] is None
