"""The owner API's OAuth scopes, and the django-oauth-toolkit scopes backend that limits each
client to the scopes its API key was given (DOT's own backend only knows one global list)."""

from django.db.models import TextChoices
from oauth2_provider.models import Application
from oauth2_provider.scopes import BaseScopes


class Scope(TextChoices):
    KIOSKS_WRITE = "kiosks:write", "List, rename and unpair kiosks; create pairing codes"
    ORDERS_READ = "orders:read", "List orders"
    ORDERS_WRITE = "orders:write", "Move orders through preparing, ready and completed"
    REFUNDS_WRITE = "refunds:write", "Refund orders, in full or in part"
    MENU_WRITE = "menu:write", "Change menu items' availability and stock"
    REPORTS_READ = "reports:read", "Read the sessions and item sales reports"
    BUSINESS_WRITE = "business:write", "Read a business and set the address its receipts print"
    PRINTERS_WRITE = "printers:write", "Read, add, change and remove printers; print a test page"
    AGENTS_WRITE = "agents:write", "List agents; set how many customers each serves at once"


ALL_SCOPES: dict[str, str] = {scope.value: scope.label for scope in Scope}


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
