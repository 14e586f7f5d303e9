"""`/`: where each surface is. Outside production it also says which demo credentials (made by
`manage.py seed_demo`) open which, and whether payments go to the demo processor."""

from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.translation import get_language_info, gettext
from django.views.decorators.http import require_POST, require_safe

from apps.accounts.models import User
from apps.billing.models import CardReader
from apps.demo import kiosk_app_code
from apps.demo.credentials import DEMO_DOMAIN, DEMO_PASSWORD
from apps.demo_processor import mode


@require_safe
def landing_page(request: HttpRequest) -> HttpResponse:
    context: dict[str, object] = {"production": settings.PRODUCTION, "demo_payments": mode.active()}
    if not settings.PRODUCTION:
        users = User.objects.filter(email__endswith=DEMO_DOMAIN, is_active=True).order_by("email")
        owners = [u.email for u in users if u.panel_role]
        admins = [u.email for u in users if u.is_superuser]
        context.update(
            demo_password=DEMO_PASSWORD,
            owners=owners,
            owner_codes=_codes(owners),  # a list inside a translated sentence, which cannot loop
            agents=[{"email": u.email, "speaks": _languages(u.languages)} for u in users if u.is_agent],
            admins=admins,
            admin_codes=_codes(admins),
            kiosk_code=kiosk_app_code.current(),
            can_make_kiosk_code=kiosk_app_code.demo_business() is not None,
            mail_folder=_mail_folder(),
            reader_links=_reader_links() if mode.active() else "",
        )
    return render(request, "landing.html", context)


def _mail_folder() -> str:
    """Where mail goes outside production (files, not sent), relative to the project when it is
    in it; "" when a real backend is configured."""
    if not settings.EMAIL_BACKEND.endswith("filebased.EmailBackend"):
        return ""
    folder = Path(settings.EMAIL_FILE_PATH).resolve()
    base = Path(settings.BASE_DIR).resolve()
    shown = folder.relative_to(base) if folder.is_relative_to(base) else folder
    return f"{shown}/"


def _reader_links() -> str:
    """The demo kiosks' simulated readers (seed_demo's), each a link to its demo page."""
    found = CardReader.objects.filter(
        kiosk__unpaired_at=None, kiosk__business__owner__users__email__endswith=DEMO_DOMAIN
    ).select_related("kiosk")
    rows = {reader.reader_id: reader for reader in found}.values()  # one row per user of the owner
    return format_html_join(
        ", ",
        '<a href="{}">{}</a>',
        ((reverse("demo_processor:reader_page", args=[r.reader_id]), f"{r.kiosk.name}: {r.label}") for r in rows),
    )


def _codes(emails: list[str]) -> str:
    return format_html_join(", ", "<code>{}</code>", ((email,) for email in emails))


def _languages(codes: list[str]) -> str:
    """["en", "fr"] -> "English, French" (Django's catalogue's names, in the page's language): the
    customers an agent is offered first."""
    if not codes:
        return gettext("every language")
    names = []
    for code in codes:
        try:
            names.append(str(get_language_info(code)["name_translated"]))
        except KeyError:
            names.append(code)
    return ", ".join(names)


@require_POST
def new_kiosk_code(request: HttpRequest) -> HttpResponse:
    """Outside production: a fresh pairing code for the demo kiosk app (the last one was used or
    expired), shown on `/`."""
    if settings.PRODUCTION:
        raise Http404
    kiosk_app_code.renew()
    return redirect("landing")
