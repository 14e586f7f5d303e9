"""Create (idempotently) demo tenants, agents and a paired kiosk each, and print credentials.

Every run adds fresh pairing codes and re-pairs the demo kiosks, so the printed codes and
device tokens are always usable; one more fresh code (`kiosk_app`) is left for a newcomer to pair
the kiosk app in a browser. On the demo processor the owners' connected accounts are opened
there, so a paid order works from a fresh `make run`, and each demo kiosk has a simulated card
reader whose page (on the demo processor) is opened beside the kiosk; so does the kiosk the
newcomer pairs with the `kiosk_app` code (apps/demo/reader_seed.py, when it pairs).
"""

import json
import uuid
from typing import Any, TypedDict

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from apps.accounts.models import AgentStatus, Business, Owner, PanelRole, User
from apps.billing.models import OwnerBilling
from apps.demo import kiosk_app_code as kiosk_app_codes
from apps.demo.credentials import DEMO_PASSWORD
from apps.demo.history_seed import DAYS as HISTORY_DAYS
from apps.demo.history_seed import seed_history
from apps.demo.menu_seed import seed_menu
from apps.demo.printer_seed import seed_printers
from apps.demo.reader_seed import seed_reader
from apps.demo.webhook_seed import seed_demo_webhook
from apps.demo_processor import mode as processor_mode
from apps.demo_processor import services as demo_processor
from apps.kiosks import services as kiosk_services
from apps.routing.services import owner_capacity_set

DEMO_CARDS = {
    "succeeds": "4242 4242 4242 4242",
    "declined": "4000 0000 0000 0002",
    "insufficient_funds": "4000 0000 0000 9995",
    "processing_error": "4000 0000 0000 0119",
}


class BusinessSpec(TypedDict):
    name: str
    currency: str
    tax_rate_bps: int
    primary_color: str


class TenantSpec(TypedDict):
    owner: str
    slug: str
    agent_languages: tuple[list[str], list[str]]  # agent1's, agent2's
    agent_capacity: int | None  # customers each agent serves at once; None: ROUTING_AGENT_CAPACITY
    business: BusinessSpec
    kiosk: dict[str, str]  # name, location


# What the command prints (as JSON with --json): nested credentials and ids.
Report = dict[str, Any]

DEMO_TENANTS: list[TenantSpec] = [
    {
        "owner": "Demo Burgers Co",
        "slug": "burgers",
        # agent1 serves English customers only and agent2 Spanish ones: routing by language.
        "agent_languages": (["en"], ["es"]),
        # Each agent serves three customers at once: one on video, the others paying or writing
        # (the dashboard shows each one it is not talking to as a card).
        "agent_capacity": 3,
        "business": {"name": "Burger Barn", "currency": "USD", "tax_rate_bps": 875, "primary_color": "#C2410C"},
        "kiosk": {"name": "Front counter", "location": "Main St entrance"},
    },
    {
        "owner": "Demo Noodles Ltd",
        "slug": "noodles",
        "agent_languages": (["en"], ["en", "fr"]),
        "agent_capacity": None,
        "business": {"name": "Noodle Bar", "currency": "EUR", "tax_rate_bps": 2000, "primary_color": "#15803D"},
        "kiosk": {"name": "Lobby kiosk", "location": "Station concourse"},
    },
]


def _user(email: str, **fields: object) -> User:
    user = User.objects.filter(email=email).first() or User(email=email)
    for name, value in fields.items():
        setattr(user, name, value)
    user.is_active = True
    user.set_password(DEMO_PASSWORD)
    user.save()
    return user


def _agent_entry(agent: User) -> dict[str, object]:
    return {"id": agent.pk, "email": agent.email, "password": DEMO_PASSWORD, "languages": agent.languages}


def _seed_tenant(spec: TenantSpec) -> Report:
    slug = spec["slug"]
    owner, _ = Owner.objects.get_or_create(name=spec["owner"])
    business, _ = Business.objects.update_or_create(
        owner=owner, name=spec["business"]["name"], defaults={**spec["business"]}
    )
    OwnerBilling.objects.update_or_create(
        owner=owner,
        defaults={
            "account_id": f"acct_demo_{slug}",
            "charges_enabled": True,
            "payouts_enabled": True,
            "requirements_status": "complete",
        },
    )
    if processor_mode.active():  # the demo processor must know the account to charge on it
        demo_processor.account_open(f"acct_demo_{slug}")
    seed_menu(business=business)
    if spec["agent_capacity"] is not None:
        owner_capacity_set(owner_id=owner.pk, capacity=spec["agent_capacity"])
    owner_user = _user(
        f"owner@{slug}.demo.test", name=f"{spec['owner']} owner", owner=owner, panel_role=PanelRole.OWNER
    )
    agents = [
        _user(
            f"agent{n}@{slug}.demo.test",
            name=f"{slug.title()} agent {n}",
            owner=owner,
            is_agent=True,
            agent_status=AgentStatus.AVAILABLE,
            languages=languages,
        )
        for n, languages in zip((1, 2), spec["agent_languages"], strict=True)
    ]
    device_id = uuid.uuid5(uuid.NAMESPACE_URL, f"demo-kiosk:{slug}")
    _, pair_code = kiosk_services.pairing_code_create(business=business)
    kiosk, device_token = kiosk_services.kiosk_pair(
        code=pair_code, device_id=device_id, device_name=spec["kiosk"]["name"]
    )
    kiosk_services.kiosk_rename(kiosk=kiosk, name=kiosk.name, location=spec["kiosk"]["location"])
    seed_history(business=business, kiosk=kiosk, agents=agents)  # so the panel's Reports are not empty
    fresh_codes = [kiosk_services.pairing_code_create(business=business)[1] for _ in range(2)]
    # The burger business prints its kitchen tickets and its first kiosk's receipts on the demo printer.
    printers = seed_printers(business=business, kiosk=kiosk) if slug == "burgers" else []
    return {
        "id": owner.pk,
        "name": owner.name,
        "email": owner_user.email,
        "password": DEMO_PASSWORD,
        "businesses": [{"id": business.pk, "name": business.name}],
        "agents": [_agent_entry(agent) for agent in agents],
        "pairing_codes": fresh_codes,
        "processor_account": f"acct_demo_{slug}",
        "kiosks": [{"id": kiosk.pk, "device_id": str(device_id), "device_token": device_token}],
        "printers": printers,
    }


class Command(BaseCommand):
    help = "Create demo owners, agents and kiosks (idempotent) and print their credentials."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="Print one JSON object instead of text.")
        parser.add_argument("--force", action="store_true", help="Allow running with APP_ENV=production.")
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="Where the service will answer (`make run` passes its HOST and PORT): the demo webhook "
            "subscription delivers there and the printed steps link there.",
        )

    def handle(self, *args: str, **options: Any) -> None:  # Django's signature: argparse's values
        if settings.PRODUCTION and not options["force"]:
            raise CommandError("seed_demo creates known passwords; refusing with APP_ENV=production (use --force).")
        with transaction.atomic():
            owners = [_seed_tenant(spec) for spec in DEMO_TENANTS]
            pool_agent = _user(
                "agent@pool.demo.test",
                name="Pool agent",
                owner=None,
                is_agent=True,
                agent_status=AgentStatus.AVAILABLE,
                languages=["en", "es"],
            )
            admin = _user("admin@demo.test", name="Super admin", is_staff=True, is_superuser=True)
            first = Business.objects.get(pk=owners[0]["businesses"][0]["id"])
            pairing, kiosk_app_code = kiosk_services.pairing_code_create(business=first)
            webhook = seed_demo_webhook(owner=first.owner, base_url=options["base_url"])
        kiosk_app_codes.remember(pairing, kiosk_app_code)
        for owner in owners:  # processor calls, made with no transaction open
            for kiosk in owner["kiosks"]:
                kiosk["reader"] = seed_reader(kiosk_id=kiosk["id"], base_url=options["base_url"])
        data: Report = {
            "owners": owners,
            "platform_agents": [_agent_entry(pool_agent)],
            "admin": {"email": admin.email, "password": DEMO_PASSWORD},
            "realtime": {"app_id": settings.REALTIME_APP_ID, "key": settings.REALTIME_APP_KEY},
            # No kiosk is paired with this code: it is the newcomer's, for the kiosk app at /kiosk/.
            "kiosk_app": {
                "url": "/kiosk/",
                "pairing_code": kiosk_app_code,
                "business": {"id": first.pk, "name": first.name},
                "expires_at": pairing.expires_at.isoformat(),
            },
            "payments": {"demo": processor_mode.active(), "demo_cards": DEMO_CARDS if processor_mode.active() else {}},
            "webhook": {"owner_id": first.owner_id, "url": webhook.url, "events": webhook.events},
            "base_url": options["base_url"].rstrip("/"),
        }
        if options["json"]:
            self.stdout.write(json.dumps(data))
            return
        self._print_text(data)

    def _print_text(self, data: Report) -> None:
        out, base = self.stdout.write, data["base_url"]
        burgers, kiosk_app = data["owners"][0], data["kiosk_app"]
        cards = data["payments"]["demo_cards"]
        out(self.style.SUCCESS(f"Demo data ready. Every password is {DEMO_PASSWORD}."))
        out(self.style.SUCCESS("\nTake a demo order (open each page in its own browser window):"))
        out(
            f"  1. Kiosk app    {base}{kiosk_app['url']}  pair it with code {kiosk_app['pairing_code']} "
            f"({kiosk_app['business']['name']}; valid 15 minutes; {base}/ makes a new one)"
        )
        english, spanish = burgers["agents"][0]["email"], burgers["agents"][1]["email"]
        out(
            f"  2. Agent        {base}/agent/  sign in as {english} (English; {spanish} serves Spanish): "
            "signing in makes the agent Available"
        )
        pay = (
            "pay on the kiosk's simulated card reader: open its page (linked on "
            f"{base}/ once the kiosk is paired) beside the kiosk and present a demo card there"
            if data["payments"]["demo"]
            else "pay on the kiosk with a card"
        )
        out(f"  3. Tap the kiosk, accept on the dashboard, build the cart, Send to payment; {pay}")
        if data["payments"]["demo"]:
            out(
                f"     A kiosk paired with a spare code pays on its screen with {cards['succeeds']} "
                f"({cards['declined']} is declined) until a reader is registered for it on the panel's Kiosks "
                "page (code simulated-wpe)"
            )
        out(
            f"  4. Owner panel  {base}/panel/  sign in as {burgers['email']}: Orders lists it as Confirmed "
            "(paid, sent to the kitchen); Webhooks shows its deliveries to the demo receiver"
        )
        out(
            f"  5. Printer      {base}/demo-printer/  the demo printer shows the order's kitchen ticket; "
            '"Print receipt" on the thank-you screen adds its receipt (the seeded kiosk and the one you '
            "pair with the code above print their receipts there)"
        )
        out(
            f"  6. Reports      {base}/panel/reports  the last {HISTORY_DAYS} days hold generated demo history "
            '(sessions noted "Demo data", order numbers H00001...)'
        )
        if data["payments"]["demo"]:
            out(f"  {processor_mode.NOTICE}")
        out("\nFor API clients and tests (not needed for the steps above):")
        out(f"  super-admin {base}/admin/: {data['admin']['email']}")
        for owner in data["owners"]:
            out(f"  {owner['name']} (owner {owner['id']}): owner panel {owner['email']}")
            agents = ", ".join(f"{agent['email']} ({', '.join(agent['languages'])})" for agent in owner["agents"])
            out("    agents (languages they serve): " + agents)
            out("    spare pairing codes for more kiosks (15 min): " + ", ".join(owner["pairing_codes"]))
            for kiosk in owner["kiosks"]:
                headers = f"X-Device-Id {kiosk['device_id']}  X-Device-Token {kiosk['device_token']}"
                out(f"    paired kiosk {kiosk['id']}: {headers}")
                if kiosk["reader"]:
                    out(f"      its card reader {kiosk['reader']['label']}: {kiosk['reader']['page_url']}")
        out("  platform (pool) agent: " + data["platform_agents"][0]["email"])
        out(f"  realtime app: id {data['realtime']['app_id']}, key {data['realtime']['key']}")
        out(f"  webhooks of {burgers['name']}: every event to {data['webhook']['url']}")
