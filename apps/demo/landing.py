"""`/`: where each surface is. Outside production it also says which demo credentials (made by
`manage.py seed_demo`) open which, and whether payments go to the demo processor."""

from django.conf import settings
from django.shortcuts import render
from django.views.decorators.http import require_safe

from apps.accounts.models import User
from apps.demo.credentials import DEMO_DOMAIN, DEMO_PASSWORD
from apps.demo_processor import mode


@require_safe
def landing_page(request):
    context = {"production": settings.PRODUCTION, "demo_payments": mode.active(), "notice": mode.NOTICE}
    if not settings.PRODUCTION:
        users = User.objects.filter(email__endswith=DEMO_DOMAIN, is_active=True).order_by("email")
        context.update(
            demo_password=DEMO_PASSWORD,
            owners=[u.email for u in users if u.panel_role],
            agents=[u.email for u in users if u.is_agent],
            admins=[u.email for u in users if u.is_superuser],
        )
    return render(request, "landing.html", context)
