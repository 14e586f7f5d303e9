"""Display tokens and their clients for the screens' API tests (/api/displays/*)."""

from django.test import Client

from apps.displays import services as display_services


def display_token(business, kind: str = "kitchen", *, ready_seconds: int = 600) -> str:
    """A new display token's secret for `business`."""
    _, raw = display_services.display_token_create(
        business=business, kind=kind, name=f"{kind} screen", ready_seconds=ready_seconds, created_by=None
    )
    return raw


def display_client(raw: str) -> Client:
    return Client(headers={"X-Display-Token": raw})


def pay_demo_order(base: str, kiosk, agent_http, item, *, quantity: int = 1, locale: str = "en-US") -> dict:
    """A paid order made over HTTP against a live server with the demo processor, as the kiosk and
    an agent make it: start, accept, cart, send to payment, the demo card succeeds. Returns the
    kiosk's order body (order_number, session_id)."""
    import requests

    device = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
    start = {"device_id": str(kiosk.device_id), "customer_locale": locale}
    started = requests.post(f"{base}/api/public/sessions/start", json=start, headers=device, timeout=10)
    assert started.status_code == 201, started.text
    session_id = started.json()["session_id"]
    accepted = agent_http.post(f"{base}/api/sessions/{session_id}/accept", timeout=10)
    assert accepted.status_code == 200, accepted.text
    lines = [{"menu_item_id": str(item.pk), "quantity": quantity, "notes": "no onions"}]
    carted = agent_http.post(f"{base}/api/orders", json={"session_id": session_id, "lines": lines}, timeout=10)
    assert carted.status_code == 200, carted.text
    sent = agent_http.post(f"{base}/api/sessions/{session_id}/payment", timeout=20)
    assert sent.status_code == 200, sent.text
    payment = requests.get(f"{base}/api/public/sessions/{session_id}/payment", headers=device, timeout=10).json()
    card = {"client_secret": payment["client_secret"], "card_number": "4242 4242 4242 4242"}
    confirmed = requests.post(f"{base}{payment['processor']['confirm_url']}", json=card, timeout=20)
    assert confirmed.status_code == 200, confirmed.text
    order = requests.get(f"{base}/api/public/sessions/{session_id}/order", headers=device, timeout=10).json()
    return order
