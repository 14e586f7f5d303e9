"""Owner API keys: a django-oauth-toolkit Application (client id + hashed client secret, the
client-credentials grant) that belongs to an owner and carries a set of scopes."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class OwnerApiKey(models.Model):
    """One API key of an owner. The OAuth client lives in DOT's Application (its secret is
    stored hashed); this row ties it to the owner, its scopes and its life cycle.

    On the owner API the key is the authenticated party: `request.user` is the OwnerApiKey and
    `request.auth` the access token, so views scope every query with `request.user.owner_id`.
    """

    owner = models.ForeignKey("accounts.Owner", on_delete=models.CASCADE, related_name="api_keys")
    application = models.OneToOneField(
        settings.OAUTH2_PROVIDER_APPLICATION_MODEL, on_delete=models.CASCADE, related_name="owner_api_key"
    )
    name = models.CharField(max_length=200)
    scopes = models.CharField(max_length=200, help_text="Space-separated OAuth scopes, e.g. `orders:read`.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    # The key stands in for a user on its surface (DRF's request.user).
    is_authenticated = True
    is_anonymous = False

    class Meta:
        verbose_name = "owner API key"
        indexes = [models.Index(fields=["owner", "revoked_at"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.owner_id})"

    @property
    def scope_list(self) -> list[str]:
        return self.scopes.split()

    @property
    def client_id(self) -> str:
        return str(self.application.client_id)  # django-oauth-toolkit's Application is untyped

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def allows(self, scope: str) -> bool:
        return self.is_active and scope in self.scope_list
