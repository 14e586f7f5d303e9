"""django-oauth-toolkit hooks for the owner API: only live API keys may obtain tokens."""

from oauth2_provider.oauth2_validators import OAuth2Validator
from oauthlib.oauth2.rfc6749.errors import OAuth2Error

from apps.accounts.suspension import SUSPENDED_MESSAGE
from apps.owner_api.models import OwnerApiKey


class OwnerSuspendedError(OAuth2Error):
    """The key is right but its owner is suspended: 403 with the RFC 6749 body
    `{"error": "owner_suspended", "error_description": ...}` (an extension error code)."""

    error = "owner_suspended"
    status_code = 403
    description = SUSPENDED_MESSAGE


class OwnerApiOAuth2Validator(OAuth2Validator):
    """OAUTH2_PROVIDER["OAUTH2_VALIDATOR_CLASS"]. DOT checks the client id and the hashed secret
    (HTTP Basic or the form body); a revoked key, or an Application that is no owner's key, is
    refused as `invalid_client` even with the right secret; a suspended owner's key as
    `owner_suspended` (403)."""

    def _load_application(self, client_id, request):
        # No client id holds a NUL, and PostgreSQL cannot compare one (a DataError): invalid_client.
        if client_id and "\x00" in client_id:
            return None
        return super()._load_application(client_id, request)

    def authenticate_client(self, request, *args, **kwargs) -> bool:
        if not super().authenticate_client(request, *args, **kwargs):
            return False
        live_keys = OwnerApiKey.objects.select_related("owner").filter(revoked_at=None)
        key = live_keys.filter(application_id=request.client.pk).first()
        if key is None:
            return False
        if key.owner.suspended:
            raise OwnerSuspendedError(request=request)
        return True
