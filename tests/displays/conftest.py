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


@pytest.fixture
def screens_world(live_db, settings):
    """A business with a paired kiosk, an agent, a menu item and the demo processor's account
    ready, for the live screens' tests."""
    from apps.demo_processor import services as demo_processor
    from tests import factories
    from tests.support.live import SERVER_CHECKED_HASHERS

    settings.PASSWORD_HASHERS = SERVER_CHECKED_HASHERS
    business = factories.BusinessFactory(name="Burger Barn")
    factories.OwnerBillingFactory(
        owner=business.owner, account_id="acct_demo_screens", charges_enabled=True, payouts_enabled=True
    )
    demo_processor.account_open("acct_demo_screens")
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business), name="Burgers")
    return {
        "business": business,
        "kiosk": factories.KioskFactory(business=business, name="Front counter"),
        "agent": factories.AgentFactory(owner=business.owner, name="Ada Agent"),
        "burger": factories.MenuItemFactory(category=category, name="Burger", price_cents=1000),
    }


@pytest.fixture
def live_screens(screens_world, tmp_path, request):
    """live_screens(**env) -> a LiveServer: the worker's shared daphne on the live database
    (tests/support/live.py), or with `env` one of the test's own started on the rows made so far."""
    from tests.support.processes import database_url_for_child, start_daphne, stop_daphne

    started = []

    def start(**env: str):
        if not env:
            return request.getfixturevalue("shared_live_server")
        server = start_daphne(tmp_path, database_url=database_url_for_child(tmp_path), **env)
        started.append(server)
        return server

    yield start
    for server in started:
        stop_daphne(server)


@pytest.fixture
def screen_page(chromium, request):
    """screen_page(base_url, path, before=None) -> a page on a wall-screen-sized viewport."""
    from tests.support.browser import page_opener

    with page_opener(chromium, request) as open_:
        yield lambda base_url, path, *, before=None: open_(base_url, path, (1280, 800), before=before)
