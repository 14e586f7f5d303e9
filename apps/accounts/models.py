"""Tenancy and accounts: Owner (the tenant), its Businesses, and users (agents, panel users)."""

import hashlib
import zoneinfo
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.auth.models import PermissionsMixin
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Owner(models.Model):
    """A restaurant company: the tenant every other record belongs to."""

    name = models.CharField(max_length=200)
    suspended = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.name


hex_color = RegexValidator(r"^#[0-9A-Fa-f]{6}$", "Use a colour like #1A2B3C.")
currency_code = RegexValidator(r"^[A-Z]{3}$", "Use a three-letter ISO 4217 currency code.")


def iana_time_zone(value: str) -> None:
    """A name of the IANA time zone database (e.g. Europe/Madrid), as zoneinfo knows it."""
    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"{value!r} is not an IANA time zone name, e.g. Europe/Madrid.")


ADDRESS_MAX_LENGTH = 300
ADDRESS_MAX_LINES = 6


def postal_address(value: str) -> None:
    """A few short lines (the receipt prints them under the business's name)."""
    if len(value.splitlines()) > ADDRESS_MAX_LINES:
        raise ValidationError(f"Use at most {ADDRESS_MAX_LINES} lines.")


class Business(models.Model):
    owner = models.ForeignKey(Owner, on_delete=models.CASCADE, related_name="businesses")
    name = models.CharField(max_length=200)
    logo_url = models.URLField(blank=True)
    currency = models.CharField(max_length=3, default="USD", validators=[currency_code])
    tax_rate_bps = models.PositiveIntegerField(
        default=0, validators=[MaxValueValidator(10000)], help_text="Exclusive tax rate in basis points."
    )
    primary_color = models.CharField(max_length=7, default="#1F6FEB", validators=[hex_color])
    attract_message = models.CharField(max_length=200, default="Tap to order with a real person")
    # Printed on receipts; a TextField's max_length is not enforced: the validator is.
    address = models.TextField(
        blank=True,
        max_length=ADDRESS_MAX_LENGTH,
        validators=[MaxLengthValidator(ADDRESS_MAX_LENGTH), postal_address],
        help_text="Shown on receipts, e.g. street, town and postcode on separate lines.",
    )
    session_recording = models.BooleanField(default=False)
    order_sequence = models.PositiveIntegerField(default=0, editable=False, help_text="Last order number issued.")
    created_at = models.DateTimeField(default=timezone.now)
    # Reports count days and hours in this zone (docs/reports.md); UTC until the owner sets it.
    # Declared last: the name shadows django.utils.timezone inside this class body.
    timezone = models.CharField(max_length=64, default="UTC", validators=[iana_time_zone])

    class Meta:
        verbose_name_plural = "businesses"

    def __str__(self) -> str:
        return self.name


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def create_user(self, email: str, password: str | None = None, **fields: Any) -> "User":
        if not email:
            raise ValueError("An email is required.")
        user = self.model(email=self.normalize_email(email).lower(), **fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, password: str | None = None, **fields: Any) -> "User":
        fields.update(is_staff=True, is_superuser=True)
        return self.create_user(email, password, **fields)


class AgentStatus(models.TextChoices):
    AVAILABLE = "available", _("Available")
    BUSY = "busy", _("Busy")
    BREAK = "break", _("Break")
    OFFLINE = "offline", _("Offline")


class StatusReason(models.TextChoices):
    """Why the server, not the agent, changed an agent's status (shown by the dashboard)."""

    MISSED_OFFERS = "missed_offers", _("Missed Offers")
    GONE = "gone", _("Gone")
    DISABLED = "disabled", _("Disabled")  # the owner or the super-admin disabled the account


class PanelRole(models.TextChoices):
    OWNER = "owner", _("Owner")
    MANAGER = "manager", _("Manager")
    KITCHEN = "kitchen", _("Kitchen")  # the kitchen display and order board only, not the owner panel


class User(AbstractBaseUser, PermissionsMixin):
    """Agents (is_agent) log in to the agent and token APIs; owners and managers (panel_role)
    to the owner panel; staff to /admin/. `owner` is the tenant, null for platform agents."""

    email = models.EmailField(unique=True)
    name = models.CharField(max_length=200)
    avatar_url = models.URLField(blank=True)
    owner = models.ForeignKey(Owner, null=True, blank=True, on_delete=models.CASCADE, related_name="users")
    is_agent = models.BooleanField(default=False)
    agent_status = models.CharField(max_length=10, choices=AgentStatus.choices, default=AgentStatus.OFFLINE)
    panel_role = models.CharField(max_length=10, choices=PanelRole.choices, blank=True)
    # Routing (apps/routing/router.py): the languages an agent serves (primary subtags, e.g.
    # ["en", "es"]; empty: not set, offered every language), when it last showed it is signed in
    # (its dashboard's connection or a poll of the incoming list), since when it is idle, the
    # offers it missed in a row, and why the server last changed its status ("" when it did not).
    languages = models.JSONField(default=list, blank=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    idle_since = models.DateTimeField(null=True, blank=True)
    missed_offers = models.PositiveSmallIntegerField(default=0)
    status_reason = models.CharField(max_length=20, blank=True)
    # How many customers the agent serves at once (apps/sessions/seats.py); null: its owner's
    # setting (RoutingSettings.agent_capacity), else ROUTING_AGENT_CAPACITY.
    agent_capacity = models.PositiveSmallIntegerField(null=True, blank=True)
    is_active = models.BooleanField(default=True)
    is_staff = models.BooleanField(default=False)
    date_joined = models.DateTimeField(default=timezone.now)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS = ["name"]

    class Meta:
        indexes = [models.Index(fields=["owner", "is_agent", "agent_status"])]

    def __str__(self) -> str:
        return self.email


def hash_challenge_id(public_id: str) -> str:
    return hashlib.sha256(public_id.encode()).hexdigest()


class LoginChallenge(models.Model):
    """A pending second factor: issued after a correct password, valid 5 minutes, used once.
    Its id, which the client sends back with the code, is kept only as a SHA-256 (`id_hash`):
    set `public_id` when issuing, find one with `for_id`."""

    id_hash = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="login_challenges")
    remember = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    failed_attempts = models.PositiveSmallIntegerField(default=0, validators=[MinValueValidator(0)])

    def __str__(self) -> str:
        return f"2FA challenge for {self.user_id} (expires {self.expires_at:%H:%M:%S})"

    @property
    def public_id(self) -> str:
        """The id given to the client: known only on the challenge just issued."""
        if "_public_id" not in self.__dict__:
            raise AttributeError("a stored challenge keeps only the hash of its id")
        public_id: str = self.__dict__["_public_id"]
        return public_id

    @public_id.setter
    def public_id(self, value: str) -> None:
        self.__dict__["_public_id"] = value
        self.id_hash = hash_challenge_id(value)

    @classmethod
    def for_id(cls, public_id: str) -> "models.QuerySet[LoginChallenge]":
        return cls.objects.filter(id_hash=hash_challenge_id(public_id))


class PersonalAccessToken(models.Model):
    """Bearer token `{id}|{secret}`; only the SHA-256 of the secret is kept."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="access_tokens")
    name = models.CharField(max_length=200, default="api")
    token_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user} #{self.pk}"


def hash_token_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


# The signed-in browsers' table is defined beside the engine that keys it (session_store.py).
from apps.accounts.session_store import StoredSession  # noqa: E402, F401
from apps.accounts.totp import SealedTotpDevice  # noqa: E402, F401 - the second-factor device model (see totp.py)
