"""`manage.py seed_demo`: demo tenants made idempotently, and credentials that really work. `--json`
prints one object: owners (id, email, password, businesses, agents, pairing_codes, kiosks (each with
its simulated reader on the demo processor), processor_account), platform_agents, realtime,
kiosk_app (a fresh code no kiosk uses, for the kiosk app in a browser) and payments (the demo
processor and its cards)."""

import copy
import io
import json
import re
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client

from apps.accounts.models import Business, Owner, User
from apps.billing.models import CardReader, OwnerBilling
from apps.demo_processor.models import DemoAccount, DemoReader
from apps.kiosks.models import Kiosk, PairingCode, hash_pairing_code
from apps.menu.models import Catalog, MenuItem
from apps.printing.models import Printer
from apps.sessions.seats import capacity_of
from tests.conftest import AgentClient, rows_for_the_module

SIX_DIGITS = re.compile(r"^\d{6}$")


def seed(*args) -> str:
    out = io.StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def seed_json() -> dict:
    output = seed("--json")
    return json.loads(output)  # one JSON object and nothing else


def _device_client(device_id: str, token: str) -> Client:
    return Client(headers={"X-Device-Id": device_id, "X-Device-Token": token})


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker, _menu_photo_folder):
    """One seed_demo run for the module's tests, rolled back after the last (tests/conftest.py,
    rows_for_the_module); each test's own writes and reruns are rolled back after it. The tests
    that seed an empty database themselves are in test_seed_demo_runs.py."""
    with rows_for_the_module(django_db_blocker, _menu_photo_folder):
        data = seed_json()
        code_file = Path(settings.DEMO_KIOSK_CODE_FILE)
        yield data, code_file, code_file.read_text()


@pytest.fixture
def data(db, seeded) -> dict:
    """The module's seed; the newcomer's code file as that seed left it (beside the rows: a test
    that runs seed_demo again writes another code there, and only the rows are rolled back)."""
    data, code_file, newcomers_code = seeded
    code_file.write_text(newcomers_code)
    return copy.deepcopy(data)


# --- Shape -------------------------------------------------------------------------------


def test_json_has_the_documented_top_level_keys(data):
    assert {"owners", "platform_agents", "realtime"} <= set(data)
    assert data["realtime"] == {"app_id": settings.REALTIME_APP_ID, "key": settings.REALTIME_APP_KEY}


def test_at_least_two_owners_each_with_a_business_two_agents_codes_and_a_kiosk(data):
    assert len(data["owners"]) >= 2
    for owner in data["owners"]:
        assert {"id", "email", "password", "businesses", "agents", "pairing_codes", "kiosks"} <= set(owner)
        assert isinstance(owner["id"], int) and Owner.objects.filter(pk=owner["id"]).exists()
        assert owner["email"] and owner["password"]

        assert len(owner["businesses"]) == 1
        business = owner["businesses"][0]
        assert set(business) == {"id", "name"}
        assert Business.objects.get(pk=business["id"]).owner_id == owner["id"]

        assert len(owner["agents"]) == 2
        for agent in owner["agents"]:
            assert set(agent) == {"id", "email", "password", "languages"}
            user = User.objects.get(pk=agent["id"])
            assert user.email == agent["email"] and user.is_agent and user.owner_id == owner["id"]

        assert owner["pairing_codes"]
        assert all(SIX_DIGITS.match(code) for code in owner["pairing_codes"])

        assert len(owner["kiosks"]) >= 1
        for kiosk in owner["kiosks"]:
            assert set(kiosk) >= {"id", "device_id", "device_token"}
            uuid.UUID(kiosk["device_id"])
            assert Kiosk.objects.get(pk=kiosk["id"]).business_id == business["id"]

        assert owner["processor_account"]


def test_each_business_has_an_active_menu(data):
    for owner in data["owners"]:
        business_id = owner["businesses"][0]["id"]
        catalog = Catalog.objects.get(business_id=business_id, is_active=True)
        assert MenuItem.objects.filter(category__catalog=catalog).exists()


def test_there_is_one_platform_agent_with_no_owner(data):
    assert len(data["platform_agents"]) == 1
    pool = data["platform_agents"][0]
    assert set(pool) == {"id", "email", "password", "languages"}
    user = User.objects.get(pk=pool["id"])
    assert user.is_agent and user.owner_id is None and user.is_active


def test_printed_pairing_codes_are_fresh_and_unused(data):
    for owner in data["owners"]:
        for code in owner["pairing_codes"]:
            stored = PairingCode.objects.get(code_hash=hash_pairing_code(code))
            assert stored.used_at is None
            assert stored.business_id == owner["businesses"][0]["id"]


# --- Idempotency -------------------------------------------------------------------------


def _ids(data: dict) -> dict:
    return {
        "owners": [owner["id"] for owner in data["owners"]],
        "businesses": [owner["businesses"][0]["id"] for owner in data["owners"]],
        "agents": [agent["id"] for owner in data["owners"] for agent in owner["agents"]],
        "kiosks": [kiosk["id"] for owner in data["owners"] for kiosk in owner["kiosks"]],
        "platform_agents": [agent["id"] for agent in data["platform_agents"]],
    }


def test_running_twice_keeps_the_same_records(data):
    counts = (
        Owner.objects.count(),
        Business.objects.count(),
        User.objects.count(),
        Kiosk.objects.count(),
        Catalog.objects.count(),
        MenuItem.objects.count(),
    )

    again = seed_json()

    assert _ids(again) == _ids(data)
    assert (
        Owner.objects.count(),
        Business.objects.count(),
        User.objects.count(),
        Kiosk.objects.count(),
        Catalog.objects.count(),
        MenuItem.objects.count(),
    ) == counts
    assert again["owners"][0]["email"] == data["owners"][0]["email"]


def test_each_run_adds_fresh_pairing_codes_and_keeps_the_earlier_ones_usable(data):
    again = seed_json()
    for before, after in zip(data["owners"], again["owners"], strict=True):
        assert set(after["pairing_codes"]).isdisjoint(before["pairing_codes"])
        for code in before["pairing_codes"] + after["pairing_codes"]:
            assert PairingCode.objects.get(code_hash=hash_pairing_code(code)).used_at is None


# --- The credentials work ----------------------------------------------------------------


def test_every_printed_agent_signs_in_with_the_printed_password(data):
    agents = [agent for owner in data["owners"] for agent in owner["agents"]] + data["platform_agents"]
    for agent in agents:
        client = AgentClient()
        response = client.sign_in(agent["email"], agent["password"])
        assert response.status_code == 200, (agent["email"], response.content)
        assert response.json()["user"]["id"] == agent["id"]
        assert client.get("/api/sessions/incoming").status_code == 200


def test_credentials_still_work_after_a_second_run(data):
    again = seed_json()
    agent = again["owners"][1]["agents"][1]
    assert AgentClient().sign_in(agent["email"], agent["password"]).status_code == 200
    kiosk = again["owners"][1]["kiosks"][0]
    assert (
        _device_client(kiosk["device_id"], kiosk["device_token"]).post("/api/public/kiosks/heartbeat").status_code
        == 200
    )


def test_a_printed_pairing_code_pairs_a_new_device_whose_token_works(data):
    owner = data["owners"][0]
    device_id = str(uuid.uuid4())
    response = Client().post(
        "/api/public/kiosks/pair",
        {"code": owner["pairing_codes"][0], "device_id": device_id, "device_name": "New tablet"},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    paired = response.json()
    assert paired["business"]["name"] == owner["businesses"][0]["name"]

    heartbeat = _device_client(device_id, paired["device_token"]).post("/api/public/kiosks/heartbeat")
    assert heartbeat.status_code == 200


def test_every_printed_kiosk_token_works_on_the_kiosk_api(data):
    for owner in data["owners"]:
        for kiosk in owner["kiosks"]:
            client = _device_client(kiosk["device_id"], kiosk["device_token"])
            assert client.post("/api/public/kiosks/heartbeat").status_code == 200
            start = client.post(
                "/api/public/sessions/start",
                {"device_id": kiosk["device_id"], "customer_locale": "en-US"},
                content_type="application/json",
            )
            assert start.status_code == 201, start.content


# --- The kiosk app's pairing code and the demo processor ------------------------------------


def test_a_fresh_code_is_left_for_the_kiosk_app_and_pairs_a_browser(data):
    kiosk_app = data["kiosk_app"]
    assert kiosk_app["url"] == "/kiosk/" and SIX_DIGITS.match(kiosk_app["pairing_code"])
    stored = PairingCode.objects.get(code_hash=hash_pairing_code(kiosk_app["pairing_code"]))
    assert stored.used_at is None and stored.kiosk_id is None
    assert stored.business_id == kiosk_app["business"]["id"] == data["owners"][0]["businesses"][0]["id"]
    assert kiosk_app["pairing_code"] not in data["owners"][0]["pairing_codes"]
    paired = Client().post(
        "/api/public/kiosks/pair",
        {"code": kiosk_app["pairing_code"], "device_id": str(uuid.uuid4()), "device_name": "Browser"},
        content_type="application/json",
    )
    assert paired.status_code == 200, paired.content
    assert seed_json()["kiosk_app"]["pairing_code"] != kiosk_app["pairing_code"]  # each run leaves a new one


def test_the_demo_owners_accounts_are_open_on_the_demo_processor(data):
    assert data["payments"]["demo"] is True
    assert data["payments"]["demo_cards"]["succeeds"] == "4242 4242 4242 4242"
    for owner in data["owners"]:
        account = DemoAccount.objects.get(account_id=owner["processor_account"])
        assert account.charges_enabled
        billing = OwnerBilling.objects.get(owner_id=owner["id"])
        assert billing.account_id == account.account_id and billing.charges_enabled


def test_each_demo_kiosk_has_a_simulated_reader_whose_page_answers(data):
    for owner in data["owners"]:
        for kiosk in owner["kiosks"]:
            entry = kiosk["reader"]
            assert set(entry) == {"id", "label", "page_url"}
            reader = CardReader.objects.get(kiosk_id=kiosk["id"])
            assert (entry["id"], entry["label"]) == (reader.reader_id, reader.label)
            assert reader.owner_id == owner["id"] and reader.account_id == owner["processor_account"]
            demo = DemoReader.objects.get(reader_id=reader.reader_id)
            assert demo.device_type == "simulated_wisepos_e" and demo.status == "online"
            path = f"/demo-processor/readers/{reader.reader_id}/"
            assert entry["page_url"] == "http://127.0.0.1:8000" + path
            assert Client().get(path).status_code == 200


def test_a_second_run_keeps_each_kiosks_reader(data):
    again = seed_json()
    readers = [kiosk["reader"] for owner in data["owners"] for kiosk in owner["kiosks"]]
    assert [kiosk["reader"] for owner in again["owners"] for kiosk in owner["kiosks"]] == readers
    assert DemoReader.objects.count() == len(readers) == CardReader.objects.count()


# --- The demo menu: translations, allergens, real photos served by the project -----------------


def test_the_demo_menu_has_spanish_names_allergens_and_served_photos(data):
    burgers = data["owners"][0]
    device = burgers["kiosks"][0]
    client = _device_client(device["device_id"], device["device_token"])
    body = client.get("/api/public/menu?locale=es").json()
    names = [category["name"] for category in body["categories"]]
    assert names == ["Hamburguesas", "Acompañamientos", "Bebidas"]
    items = [item for category in body["categories"] for item in category["menu_items"]]
    classic = next(item for item in items if item["id"] and item["name"] == "Hamburguesa clásica")
    assert "gluten" in classic["allergens"]
    assert classic["modifier_groups"][1]["options"][0]["name"] == "Queso"
    assert any("vegan" in item["dietary"] for item in items)
    for item in items:
        assert item["photo_url"].startswith("http://testserver/media/menu-photos/"), item
        photo = client.get(item["photo_url"])
        assert photo.status_code == 200 and photo["Content-Type"] == "image/webp"
    assert not MenuItem.objects.filter(photo__contains="example.com").exists()
    english = client.get("/api/public/menu?locale=en").json()["categories"][0]["name"]
    assert english == "Burgers"


def test_a_demo_catalog_from_an_older_seed_gets_its_translations_and_photos(data):
    MenuItem.objects.update(photo="", translations={}, allergens=[])
    MenuItem.objects.filter(name="Fries").update(translations={"es": {"name": "Papas fritas"}})  # the owner's word
    seed("--json")
    assert not MenuItem.objects.filter(photo="").exists()
    assert MenuItem.objects.get(name="Classic burger").translations["es"]["name"] == "Hamburguesa clásica"
    fries = MenuItem.objects.get(name="Fries").translations
    assert fries["es"] == {"name": "Papas fritas"} and fries["fr"]["name"] == "Frites"


def test_the_demo_menu_speaks_every_kiosk_language(data):
    device = data["owners"][0]["kiosks"][0]
    client = _device_client(device["device_id"], device["device_token"])
    firsts = {
        locale: client.get(f"/api/public/menu?locale={locale}").json()["categories"][2]["menu_items"][0]
        for locale in ("fr", "de")
    }
    sizes = {locale: item["modifier_groups"][0]["options"][1]["name"] for locale, item in firsts.items()}
    assert sizes == {"fr": "Moyen", "de": "Mittel"}
    assert MenuItem.objects.get(name="Classic burger").translations["de"]["name"] == "Klassischer Burger"


def test_the_first_owner_has_an_english_only_and_a_spanish_only_agent(data):
    languages = {agent["email"]: agent["languages"] for agent in data["owners"][0]["agents"]}
    assert languages == {"agent1@burgers.demo.test": ["en"], "agent2@burgers.demo.test": ["es"]}
    for agent in data["owners"][0]["agents"] + data["platform_agents"]:
        assert User.objects.get(pk=agent["id"]).languages == agent["languages"]


def test_the_burger_owners_agents_serve_three_customers_at_once(data, settings):
    """The demo burger owner's agents take a video customer, one paying and one writing at once
    (the dashboard's cards); the noodle owner's keep the default."""
    settings.ROUTING_AGENT_CAPACITY = 1
    burgers, noodles = (Owner.objects.get(name=name) for name in ("Demo Burgers Co", "Demo Noodles Ltd"))
    assert capacity_of(agent_capacity=None, owner_id=burgers.pk) == 3
    assert capacity_of(agent_capacity=None, owner_id=noodles.pk) == 1


def test_the_burger_business_prints_its_kitchen_and_its_first_kiosks_receipts_on_the_demo_printer(data, settings):
    burgers = data["owners"][0]
    kiosk_id = burgers["kiosks"][0]["id"]
    address = settings.DEMO_PRINTER_ADDRESS
    assert [(p["role"], p["address"], p["kiosk_id"]) for p in burgers["printers"]] == [
        ("kitchen", address, None),
        ("receipt", address, kiosk_id),
    ]
    business = Business.objects.get(pk=burgers["businesses"][0]["id"])
    assert Printer.objects.filter(business=business).count() == 2
    assert not Printer.objects.exclude(business=business).exists()  # the noodle bar prints nothing
    settings.DEMO_PRINTER_ADDRESS = "192.0.2.7:9100"  # pointed at another listener: the printers move there
    again = seed_json()
    assert [p["id"] for p in again["owners"][0]["printers"]] == [p["id"] for p in burgers["printers"]]
    assert set(Printer.objects.values_list("host", "port")) == {("192.0.2.7", 9100)}


def _pair_browser(code: str, capture) -> Kiosk:
    with capture(execute=True):
        response = Client().post(
            "/api/public/kiosks/pair",
            {"code": code, "device_id": str(uuid.uuid4()), "device_name": "Browser"},
            content_type="application/json",
        )
    assert response.status_code == 200, response.content
    return Kiosk.objects.get(pk=response.json()["kiosk_id"])


def test_the_kiosk_paired_with_the_newcomers_code_gets_a_simulated_reader(data, django_capture_on_commit_callbacks):
    def pair(code: str) -> Kiosk:
        return _pair_browser(code, django_capture_on_commit_callbacks)

    newcomers = pair(data["kiosk_app"]["pairing_code"])
    reader = CardReader.objects.get(kiosk=newcomers)
    assert (reader.label, reader.status) == ("Browser reader", "online")
    assert DemoReader.objects.get(reader_id=reader.reader_id).device_type == "simulated_wisepos_e"
    assert f"/demo-processor/readers/{reader.reader_id}/" in Client().get("/").content.decode()  # the landing links it
    spare = pair(data["owners"][0]["pairing_codes"][0])  # a spare code: the owner registers a reader if wanted
    assert not CardReader.objects.filter(kiosk=spare).exists()


def test_the_kiosk_paired_with_the_newcomers_code_prints_its_receipts_on_the_demo_printer(
    data, settings, django_capture_on_commit_callbacks
):
    newcomers = _pair_browser(data["kiosk_app"]["pairing_code"], django_capture_on_commit_callbacks)
    printer = Printer.objects.get(kiosk=newcomers)
    assert (printer.role, f"{printer.host}:{printer.port}") == ("receipt", settings.DEMO_PRINTER_ADDRESS)
    assert printer.name == "Demo receipt printer (Browser)"
    spare = _pair_browser(data["owners"][0]["pairing_codes"][0], django_capture_on_commit_callbacks)
    assert not Printer.objects.filter(kiosk=spare).exists()  # the owner adds one on the Printers page
