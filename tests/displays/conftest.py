import pytest

from tests.support.displays import display_client, display_token


@pytest.fixture
def kitchen(business):
    """The kitchen display's client (a display token of `business`)."""
    return display_client(display_token(business, "kitchen"))


@pytest.fixture
def board(business):
    return display_client(display_token(business, "board"))


@pytest.fixture
def display_broadcasts(monkeypatch) -> list:
    """The screens' real-time messages (channels, event, data), recorded instead of sent."""
    sent: list = []
    monkeypatch.setattr(
        "apps.displays.realtime_messages.broadcast", lambda channels, event, data: sent.append((channels, event, data))
    )
    return sent
