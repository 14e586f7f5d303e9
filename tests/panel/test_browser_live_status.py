"""The dashboard's live kiosk status: pusher-js against a scripted Pusher-protocol socket
(Playwright routes the WebSocket), with the real /broadcasting/auth signing the subscription."""

import json
import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests import factories
from tests.panel.conftest import sign_in

pytestmark = pytest.mark.live


class PusherScript:
    """Just enough of the server side of Pusher protocol 7 for one presence channel."""

    def __init__(self, members: dict):
        self.members = members
        self.subscriptions: list[dict] = []
        self.socket = None

    def __call__(self, ws):
        self.socket = ws
        ws.on_message(self.on_message)
        ws.send(self.frame("pusher:connection_established", {"socket_id": "1234.5678", "activity_timeout": 120}))

    @staticmethod
    def frame(event: str, data: dict, channel: str | None = None) -> str:
        body = {"event": event, "data": json.dumps(data)}
        if channel:
            body["channel"] = channel
        return json.dumps(body)

    def on_message(self, message):
        frame = json.loads(message)
        if frame["event"] == "pusher:ping":
            self.socket.send(json.dumps({"event": "pusher:pong", "data": "{}"}))
        elif frame["event"] == "pusher:subscribe":
            self.subscriptions.append(frame["data"])
            me = json.loads(frame["data"]["channel_data"])
            members = {me["user_id"]: me["user_info"], **self.members}
            presence = {"presence": {"ids": list(members), "hash": members, "count": len(members)}}
            self.socket.send(self.frame("pusher_internal:subscription_succeeded", presence, frame["data"]["channel"]))

    def push(self, event: str, data: dict, channel: str):
        self.socket.send(self.frame(event, data, channel))


def status_of(page, kiosk):
    return page.locator(f"#live-kiosks tr[data-kiosk-id='{kiosk.pk}'] .kiosk-status")


def test_dashboard_follows_the_owner_presence_channel(page, browser_settings, panel_owner, business):
    browser_settings.PANEL_LIVE_STATUS = True
    present = factories.KioskFactory(business=business, name="Front", online=False)
    leaving = factories.KioskFactory(business=business, name="Back", online=True)
    script = PusherScript({f"kiosk.{present.pk}": {"id": str(present.pk), "name": "Front", "location": ""}})
    page.route_web_socket(re.compile(r"/app/"), script)

    sign_in(page, panel_owner.email)
    expect(page.locator("#live-state")).to_have_attribute("data-state", "connected")
    expect(status_of(page, present)).to_have_attribute("data-online", "true")  # a present member

    [subscription] = script.subscriptions
    channel = f"presence-owner.{panel_owner.owner_id}"
    assert subscription["channel"] == channel
    assert subscription["auth"].startswith(f"{settings.REALTIME_APP_KEY}:")
    assert json.loads(subscription["channel_data"])["user_id"] == f"user.{panel_owner.pk}"

    brief = {"id": str(leaving.pk), "name": "Back", "location": ""}
    script.push("KioskStatusChanged", {"kiosk": brief, "online": False, "changed_at": "2026-01-02T03:04:05Z"}, channel)
    expect(status_of(page, leaving)).to_have_attribute("data-online", "false")
    expect(status_of(page, leaving)).to_contain_text("offline")

    script.push("pusher_internal:member_removed", {"user_id": f"kiosk.{present.pk}"}, channel)
    expect(status_of(page, present)).to_have_attribute("data-online", "false")
    page.console_errors.assert_none()


def test_dashboard_keeps_the_server_status_when_the_socket_is_refused(page, browser_settings, panel_owner, business):
    browser_settings.PANEL_LIVE_STATUS = True
    kiosk = factories.KioskFactory(business=business, online=True)

    def refuse(ws):  # what the server says to an unknown app key (Pusher error 4001), then it hangs up
        ws.send(json.dumps({"event": "pusher:error", "data": {"code": 4001, "message": "Application does not exist"}}))
        ws.close(code=4001, reason="Application does not exist")

    page.route_web_socket(re.compile(r"/app/"), refuse)
    sign_in(page, panel_owner.email)
    expect(page.locator("#live-state")).to_have_attribute("data-state", "unavailable")
    expect(page.locator("#live-state")).to_contain_text("as of page load")
    expect(status_of(page, kiosk)).to_have_attribute("data-online", "true")
    page.console_errors.assert_none()
