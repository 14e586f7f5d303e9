"""django-oauth-toolkit hooks for the owner API: only live API keys may obtain tokens."""

from oauth2_provider.oauth2_validators import OAuth2Validator

from apps.owner_api.models import OwnerApiKey


class OwnerApiOAuth2Validator(OAuth2Validator):
    """OAUTH2_PROVIDER["OAUTH2_VALIDATOR_CLASS"]. DOT checks the client id and the hashed secret
    (HTTP Basic or the form body); a revoked key, or an Application that is no owner's key, is
    refused as `invalid_client` even with the right secret."""

    def authenticate_client(self, request, *args, **kwargs) -> bool:
        if not super().authenticate_client(request, *args, **kwargs):
            return False
        return OwnerApiKey.objects.filter(application_id=request.client.pk, revoked_at=None).exists()
