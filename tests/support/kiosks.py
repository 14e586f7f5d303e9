"""Kiosk test helpers: pairing a device with a code as the kiosk app does."""

import uuid

from django.test import Client

PAIR_URL = "/api/public/kiosks/pair"


def pair(client: Client, code: str, device_id=None, name="Front kiosk"):
    body = {"code": code, "device_id": str(device_id or uuid.uuid4()), "device_name": name}
    return client.post(PAIR_URL, body, content_type="application/json")
