"""Super-admin: routing settings, read-only (owners set them on the panel's Settings page), and
each session's offers on the session's page: sessions does not import routing, so its admin is
extended here (apps load in INSTALLED_APPS order: sessions' admin is registered first)."""

from django.contrib import admin

from apps.core.admin_bases import NoAddAdmin, ReadOnlyInline
from apps.routing.models import Offer, RoutingSettings
from apps.sessions.admin import SessionAdmin
from apps.sessions.models import Session


class OfferInline(ReadOnlyInline[Offer, Session]):
    """Who was offered the session and how each offer ended (read-only: the router writes them)."""

    model = Offer
    fields = readonly_fields = ("agent", "status", "any_language", "created_at", "expires_at", "closed_at")


admin.site.unregister(Session)


@admin.register(Session)
class SessionWithOffersAdmin(SessionAdmin):
    inlines = [OfferInline, *SessionAdmin.inlines]


@admin.register(RoutingSettings)
class RoutingSettingsAdmin(NoAddAdmin[RoutingSettings]):
    """Read-only: owners set them on the panel's Settings page (routing_settings_update)."""

    list_display = [
        "owner",
        "offer_size",
        "offer_seconds",
        "any_language_after_seconds",
        "misses_before_break",
        "agents_start_on_break",
        "agent_capacity",
    ]
    readonly_fields = [field.name for field in RoutingSettings._meta.fields]
