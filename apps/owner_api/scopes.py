"""The owner API's OAuth scopes, and the django-oauth-toolkit scopes backend that limits each
client to the scopes its API key was given (DOT's own backend only knows one global list)."""

from django.db.models import TextChoices
from django.utils.translation import gettext_lazy, gettext_noop
from oauth2_provider.models import Application
from oauth2_provider.scopes import BaseScopes


class Scope(TextChoices):
    KIOSKS_WRITE = "kiosks:write", gettext_noop("List, rename and unpair kiosks; create pairing codes")
    ORDERS_READ = "orders:read", gettext_noop("List orders")
    ORDERS_WRITE = "orders:write", gettext_noop("Move orders through preparing, ready and completed")
    REFUNDS_WRITE = "refunds:write", gettext_noop("Refund orders, in full or in part")
    MENU_WRITE = "menu:write", gettext_noop("Change menu items' availability and stock")
    REPORTS_READ = "reports:read", gettext_noop("Read the sessions and item sales reports")
    BUSINESS_WRITE = "business:write", gettext_noop("Read a business and set the address its receipts print")
    PRINTERS_WRITE = "printers:write", gettext_noop("Read, add, change and remove printers; print a test page")
    AGENTS_WRITE = "agents:write", gettext_noop("List agents; set how many customers each serves at once")


# What each scope lets a key do: the API's English (the token endpoint's and the OpenAPI schema's,
# which renders no lazy text); SCOPE_LABELS says the same in the panel's and the admin's language.
ALL_SCOPES: dict[str, str] = {scope.value: scope.label for scope in Scope}
SCOPE_LABELS = {scope: gettext_lazy(label) for scope, label in ALL_SCOPES.items()}


class OwnerApiKeyScopes(BaseScopes):  # type: ignore[misc]  # django-oauth-toolkit ships no types
    """OAUTH2_PROVIDER["SCOPES_BACKEND_CLASS"]: a token may carry only its key's scopes; a token
    request without `scope` gets all of them."""

    def get_all_scopes(self) -> dict[str, str]:
        return ALL_SCOPES

    def get_available_scopes(
        self, application: Application | None = None, *args: object, **kwargs: object
    ) -> list[str]:
        return list(ALL_SCOPES) if application is None else _key_scopes(application)

    def get_default_scopes(self, application: Application | None = None, *args: object, **kwargs: object) -> list[str]:
        return [] if application is None else _key_scopes(application)


def _key_scopes(application: Application) -> list[str]:
    from apps.owner_api.models import OwnerApiKey

    key = OwnerApiKey.objects.filter(application_id=application.pk, revoked_at=None).only("scopes").first()
    return key.scope_list if key is not None else []
