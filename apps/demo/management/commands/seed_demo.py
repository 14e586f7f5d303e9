"""Create (idempotently) demo tenants, agents and a paired kiosk each, and print credentials.

Every run adds fresh pairing codes and re-pairs the demo kiosks, so the printed codes and
device tokens are always usable; one more fresh code (`kiosk_app`) is left for a newcomer to pair
the kiosk app in a browser. On the demo processor the owners' connected accounts are opened
there, so a paid order works from a fresh `make run`.
"""

import json
import uuid

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.accounts.models import AgentStatus, Business, Owner, PanelRole, User
from apps.billing.models import OwnerBilling
from apps.demo.credentials import DEMO_PASSWORD
from apps.demo.menus import BURGER_MENU, NOODLE_MENU
from apps.demo_processor import mode as processor_mode
from apps.demo_processor import services as demo_processor
from apps.kiosks import services as kiosk_services
from apps.menu import services as menu_services
from apps.menu.models import Catalog

DEMO_CARDS = {
    "succeeds": "4242 4242 4242 4242",
    "declined": "4000 0000 0000 0002",
    "insufficient_funds": "4000 0000 0000 9995",
    "processing_error": "4000 0000 0000 0119",
}
DEMO_TENANTS = [
    {
        "owner": "Demo Burgers Co",
        "slug": "burgers",
        # agent1 serves English customers only and agent2 Spanish ones: routing by language.
        "agent_languages": (["en"], ["es"]),
        "business": {"name": "Burger Barn", "currency": "USD", "tax_rate_bps": 875, "primary_color": "#C2410C"},
        "menu": BURGER_MENU,
        "kiosk": {"name": "Front counter", "location": "Main St entrance"},
    },
    {
        "owner": "Demo Noodles Ltd",
        "slug": "noodles",
        "agent_languages": (["en"], ["en", "fr"]),
        "business": {"name": "Noodle Bar", "currency": "EUR", "tax_rate_bps": 2000, "primary_color": "#15803D"},
        "menu": NOODLE_MENU,
        "kiosk": {"name": "Lobby kiosk", "location": "Station concourse"},
    },
]


def _user(email: str, **fields) -> User:
    user = User.objects.filter(email=email).first() or User(email=email)
    for name, value in fields.items():
        setattr(user, name, value)
    user.is_active = True
    user.set_password(DEMO_PASSWORD)
    user.save()
    return user


def _agent_entry(agent: User) -> dict:
    return {"id": agent.pk, "email": agent.email, "password": DEMO_PASSWORD, "languages": agent.languages}


def _seed_tenant(spec: dict) -> dict:
    slug = spec["slug"]
    owner, _ = Owner.objects.get_or_create(name=spec["owner"])
    business, _ = Business.objects.update_or_create(
        owner=owner, name=spec["business"]["name"], defaults=spec["business"]
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
    if not Catalog.objects.filter(business=business, is_active=True).exists():
        menu_services.catalog_import(business=business, spec=spec["menu"])
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
    fresh_codes = [kiosk_services.pairing_code_create(business=business)[1] for _ in range(2)]
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
    }


class Command(BaseCommand):
    help = "Create demo owners, agents and kiosks (idempotent) and print their credentials."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="Print one JSON object instead of text.")
        parser.add_argument("--force", action="store_true", help="Allow running with APP_ENV=production.")

    def handle(self, *args, **options):
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
        data = {
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
        }
        if options["json"]:
            self.stdout.write(json.dumps(data))
            return
        self._print_text(data)

    def _print_text(self, data: dict) -> None:
        out = self.stdout.write
        out(self.style.SUCCESS("Demo data ready. Every password is " + DEMO_PASSWORD))
        out(f"Super-admin (/admin/): {data['admin']['email']}")
        for owner in data["owners"]:
            out(f"\n{owner['name']} (owner {owner['id']}): owner panel /panel/login as {owner['email']}")
            agents = ", ".join(f"{agent['email']} ({', '.join(agent['languages'])})" for agent in owner["agents"])
            out("  agents (agent dashboard /agent/): " + agents)
            out("  pairing codes (15 min): " + ", ".join(owner["pairing_codes"]))
            for kiosk in owner["kiosks"]:
                out(f"  kiosk {kiosk['id']}: X-Device-Id {kiosk['device_id']}  X-Device-Token {kiosk['device_token']}")
        out("\nPlatform (pool) agent (agent dashboard /agent/): " + data["platform_agents"][0]["email"])
        out(f"Realtime app: id {data['realtime']['app_id']}, key {data['realtime']['key']}")
        kiosk_app = data["kiosk_app"]
        out(
            self.style.SUCCESS(
                f"\nKiosk app {kiosk_app['url']}: pair it with code {kiosk_app['pairing_code']} "
                f"({kiosk_app['business']['name']}, valid 15 minutes; the owner panel makes more)"
            )
        )
        if data["payments"]["demo"]:
            cards = data["payments"]["demo_cards"]
            out(f"{processor_mode.NOTICE} Demo cards: {cards['succeeds']} succeeds, {cards['declined']} is declined.")
