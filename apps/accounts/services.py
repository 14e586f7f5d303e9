"""State changes for accounts: agent sign-in with optional TOTP, agent status, access tokens."""

import logging
import math
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop
from django_otp import devices_for_user

from apps.accounts import login_throttle
from apps.accounts.actors import display_member
from apps.accounts.domain_events import AgentStatusChanged, BusinessChanged, OwnerReinstated, OwnerSuspended
from apps.accounts.models import (
    AgentStatus,
    Business,
    LoginChallenge,
    Owner,
    PersonalAccessToken,
    StatusReason,
    User,
    hash_token_secret,
)
from apps.accounts.suspension import ensure_owner_not_suspended
from apps.accounts.totp import SealedTotpDevice
from apps.core import events
from apps.core.errors import DomainError, ErrorCode, require_choice

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LoginResult:
    """Either `user` (password accepted, no 2FA) or `challenge` (a TOTP code is needed)."""

    user: User | None = None
    challenge: LoginChallenge | None = None
    remember: bool = False


def _check_password(email: str, password: str) -> User | None:
    user = User.objects.filter(email__iexact=email.strip()).first()
    if user is None:
        User().set_password(password)  # same hashing time whether or not the email exists
        return None
    return user if user.check_password(password) else None


def _signed_in_user(*, email: str, password: str, ip: str) -> User:
    """The active user with this email and password, counting failures on the sign-in counters
    (429 after a limit: apps/accounts/login_throttle.py): the agent, token API and panel sign-ins."""
    login_throttle.ensure_allowed(email, ip)
    user = _check_password(email, password)
    if user is None:
        login_throttle.record_failure(email, ip)
        raise DomainError(ErrorCode.INVALID_CREDENTIALS, "The email or password is incorrect.")
    login_throttle.reset(email, ip)
    if not user.is_active:
        raise DomainError(ErrorCode.ACCOUNT_DISABLED, "This account has been disabled.")
    return user


def _authenticate_agent(*, email: str, password: str, ip: str) -> User:
    """Check an agent's password, counting failures per email + IP (429 after the limit)."""
    user = _signed_in_user(email=email, password=password, ip=ip)
    if not user.is_agent:
        raise DomainError(ErrorCode.PANEL_ONLY_ACCOUNT, "This account signs in to the owner panel, not here.")
    return user


def _has_two_factor(user: User) -> bool:
    return any(devices_for_user(user, confirmed=True))


def _verify_totp(user: User, code: str | None) -> bool:
    """django-otp refuses a code already used (replay) and allows one step of clock drift.

    After a wrong code django-otp locks the device for 1, 2, 4 ... seconds and refuses every code
    meanwhile, even a correct one: that is answered 429 with Retry-After, not "incorrect". The
    devices are row-locked, so two requests cannot both spend the same code."""
    if not code:
        return False
    with transaction.atomic():
        devices = list(devices_for_user(user, confirmed=True, for_verify=True))
        checks = [(device, device.verify_is_allowed()) for device in devices]
        allowed = [device for device, (ok, _) in checks if ok]
        if devices and not allowed:
            now = timezone.now()
            unlock = min((info or {}).get("locked_until") or now for _, (_, info) in checks)
            wait = max(1, math.ceil((unlock - now).total_seconds()))
            raise DomainError(
                ErrorCode.RATE_LIMITED,
                "Too many wrong authentication codes. Retry in {wait} seconds.",
                params={"wait": wait},
                headers={"Retry-After": str(wait)},
            )
        return any(device.verify_token(code) for device in allowed)


def agent_login(*, email: str, password: str, remember: bool, ip: str) -> LoginResult:
    """Check an agent's password; start a 2FA challenge when the agent has TOTP enrolled."""
    user = _authenticate_agent(email=email, password=password, ip=ip)
    if _has_two_factor(user):
        challenge = LoginChallenge.objects.create(
            public_id=secrets.token_urlsafe(32),  # type: ignore[misc]  # a property that stores its hash
            user=user,
            remember=remember,
            expires_at=timezone.now() + settings.TWO_FACTOR_CHALLENGE_TTL,
        )
        return LoginResult(challenge=challenge, remember=remember)
    return LoginResult(user=user, remember=remember)


def token_login(*, email: str, password: str, code: str | None, ip: str) -> tuple[PersonalAccessToken, str]:
    """Issue a personal access token to an agent. An agent with TOTP enrolled must also send
    a current code: the token API is no way around the second factor. A suspended owner's
    agents get no token (403 OWNER_SUSPENDED, told only after a correct password)."""
    user = _authenticate_agent(email=email, password=password, ip=ip)
    ensure_owner_not_suspended(user.owner_id)
    if _has_two_factor(user) and not _verify_totp(user, code):
        raise DomainError(ErrorCode.INVALID_2FA_CODE, "This account needs its current authentication code.")
    return access_token_issue(user=user, name="api")


def two_factor_verify(*, challenge_id: str, code: str) -> LoginResult:
    """Consume a 2FA challenge with a TOTP code. A challenge works once, for 5 minutes, and is
    burnt after TWO_FACTOR_MAX_ATTEMPTS wrong codes."""
    with transaction.atomic():
        challenge = LoginChallenge.for_id(challenge_id).select_for_update().select_related("user").first()
        if challenge is None:
            raise DomainError(ErrorCode.CHALLENGE_NOT_FOUND, "This sign-in challenge does not exist.")
        if challenge.used_at is not None:
            raise DomainError(ErrorCode.CHALLENGE_ALREADY_USED, "This sign-in challenge was already used.")
        if challenge.expires_at <= timezone.now():
            raise DomainError(ErrorCode.CHALLENGE_EXPIRED, "This sign-in challenge expired. Sign in again.")
        user = challenge.user
        if not user.is_active:
            raise DomainError(ErrorCode.ACCOUNT_DISABLED, "This account has been disabled.")
        verified = _verify_totp(user, code)
        if verified:
            challenge.used_at = timezone.now()
        else:
            challenge.failed_attempts += 1
            if challenge.failed_attempts >= settings.TWO_FACTOR_MAX_ATTEMPTS:
                challenge.used_at = timezone.now()
        challenge.save(update_fields=["failed_attempts", "used_at"])
    # Raised after the block commits, so a wrong attempt is counted even though the call fails.
    if not verified:
        raise DomainError(ErrorCode.INVALID_2FA_CODE, "The authentication code is incorrect.")
    return LoginResult(user=user, remember=challenge.remember)


def agent_set_status(*, agent: User, status: str) -> None:
    """The agent's own status change. Becoming available starts its idle time (the router offers
    the longest idle first) and clears its missed offers and the server's reason."""
    require_choice(status, AgentStatus.values, field="status", message=gettext_noop("Unknown agent status."))
    now = timezone.now()
    with transaction.atomic():
        changes = {"agent_status": status, "last_seen_at": now, "status_reason": ""}
        if status == AgentStatus.AVAILABLE:
            changes["missed_offers"] = 0
            User.objects.filter(pk=agent.pk).exclude(agent_status=AgentStatus.AVAILABLE).update(idle_since=now)
        User.objects.filter(pk=agent.pk).update(**changes)
        events.emit(AgentStatusChanged(agent_id=agent.pk, agent_owner_id=agent.owner_id, status=status))
    agent.agent_status, agent.status_reason = status, ""


def agent_signed_in_status(*, agent: User, start: str) -> None:
    """Signing in to the dashboard says the agent is at work: an offline agent takes the `start`
    status (available, or break where its owner says agents start on break), starting its idle
    time afresh. An agent already available, busy or on break keeps what it chose; every agent
    signing in is seen now."""
    now = timezone.now()
    with transaction.atomic():
        changes = {"agent_status": start, "status_reason": "", "missed_offers": 0, "idle_since": now}
        moved = User.objects.filter(pk=agent.pk, agent_status=AgentStatus.OFFLINE).update(last_seen_at=now, **changes)
        if not moved:
            User.objects.filter(pk=agent.pk).update(last_seen_at=now)
            agent.refresh_from_db(fields=["agent_status", "status_reason", "missed_offers", "last_seen_at"])
            return
        events.emit(AgentStatusChanged(agent_id=agent.pk, agent_owner_id=agent.owner_id, status=start))
    agent.agent_status, agent.status_reason, agent.missed_offers, agent.last_seen_at = start, "", 0, now


def agents_set_status_by_server(
    *, agent_ids: list[int], only_from: tuple[str, ...], status: str, reason: str
) -> list[int]:
    """The server sets agents' status (routing: missed offers -> break, gone -> offline) when it
    still is one of `only_from`: an agent's own change made meanwhile wins. Returns the agents
    changed; each hears why (AgentStatusChanged). The caller holds the transaction."""
    changed = []
    for agent in User.objects.filter(pk__in=agent_ids, agent_status__in=only_from).only("pk", "owner_id"):
        still = User.objects.filter(pk=agent.pk, agent_status__in=only_from)
        if still.update(agent_status=status, status_reason=reason):
            change = AgentStatusChanged(agent_id=agent.pk, agent_owner_id=agent.owner_id, status=status, reason=reason)
            events.emit(change)
            changed.append(agent.pk)
    return changed


def status_message(*, reason: str, missed_offers: int) -> str:
    """What the dashboard shows about a status the server set ("" for the agent's own)."""
    if reason == StatusReason.MISSED_OFFERS:
        customers = "customer" if missed_offers == 1 else "customers"
        return f"You missed {missed_offers} {customers}. Set yourself available when you are back."
    if reason == StatusReason.GONE:
        return "You were away, so you were set offline. Set yourself available when you are back."
    if reason == StatusReason.DISABLED:
        return "Your account was disabled. Ask the restaurant's owner to let you sign in again."
    return ""


LANGUAGE_TAG = re.compile(r"^[a-z]{2,3}$")


def agent_set_languages(*, agent: User, languages: str | Iterable[object]) -> list[str]:
    """The languages an agent serves, as primary subtags ("en", "es"); an empty list means not
    set (offered every language). Set by the owner on the panel, by the super-admin for
    platform agents."""
    cleaned = clean_languages(languages)
    User.objects.filter(pk=agent.pk).update(languages=cleaned)
    agent.languages = cleaned
    return cleaned


def clean_languages(languages: str | Iterable[object]) -> list[str]:
    """A list of languages, or a string of them separated by commas or spaces, as the stored list
    (lower case, each once); 422 VALIDATION_ERROR for anything that is not a language code."""
    if isinstance(languages, str):
        languages = [part for part in re.split(r"[\s,]+", languages) if part]
    cleaned = []
    for language in languages:
        tag = str(language).strip().lower()
        if not LANGUAGE_TAG.match(tag):
            raise DomainError(
                ErrorCode.VALIDATION_ERROR,
                "The languages are invalid.",
                details={"languages": [f"{language!r} is not a language code like en or es."]},
            )
        if tag not in cleaned:
            cleaned.append(tag)
    if len(cleaned) > 20:
        raise DomainError(
            ErrorCode.VALIDATION_ERROR, "The languages are invalid.", details={"languages": ["At most 20 languages."]}
        )
    return cleaned


def access_token_issue(*, user: User, name: str = "api") -> tuple[PersonalAccessToken, str]:
    """Create a personal access token; the plaintext `{id}|{secret}` is returned only here."""
    secret = secrets.token_urlsafe(30)[:40]
    token = PersonalAccessToken.objects.create(user=user, name=name, token_hash=hash_token_secret(secret))
    return token, f"{token.pk}|{secret}"


def access_token_revoke(*, token: PersonalAccessToken) -> None:
    PersonalAccessToken.objects.filter(pk=token.pk, revoked_at=None).update(revoked_at=timezone.now())


def agent_account_disable(*, agent: User) -> None:
    """The account half of disabling an agent (apps/sessions/ending.agent_disable also
    releases the session it holds): it can no longer sign in, its cookie sessions stop working and
    every access token it holds is revoked. The row lock orders this against session_accept,
    which locks the same row and then refuses a disabled agent. Going offline is a status change
    like any other (AgentStatusChanged): an open break ends, the queue's count of available agents
    and the supervisor's board drop it."""
    with transaction.atomic():
        account = User.objects.select_for_update().filter(pk=agent.pk)
        was = account.values_list("agent_status", flat=True).first()
        account.update(is_active=False, agent_status=AgentStatus.OFFLINE, status_reason=StatusReason.DISABLED)
        PersonalAccessToken.objects.filter(user=agent, revoked_at=None).update(revoked_at=timezone.now())
        if was not in (None, AgentStatus.OFFLINE):
            events.emit(
                AgentStatusChanged(
                    agent_id=agent.pk,
                    agent_owner_id=agent.owner_id,
                    status=AgentStatus.OFFLINE,
                    reason=StatusReason.DISABLED,
                )
            )
    agent.is_active, agent.agent_status = False, AgentStatus.OFFLINE


def user_reactivate(*, user: User) -> None:
    """Let a disabled user sign in again (the super-admin's action). Its revoked tokens stay
    revoked; an agent comes back offline and sets its own status."""
    User.objects.filter(pk=user.pk).update(is_active=True)
    user.is_active = True


def owner_set_suspended(*, owner: Owner, suspended: bool) -> bool:
    """Suspend an owner, or reinstate it (docs/decisions/panel.md, "Suspension"). The flag is read fresh
    by every check (accounts.suspension), so it counts from the next request; `owner.suspended`
    or `owner.reinstated` is emitted once per change, for the audit trail and the owner's
    integrations. Returns False when the owner already was in that state."""
    now = timezone.now()
    with transaction.atomic():
        changed = Owner.objects.filter(pk=owner.pk, suspended=not suspended).update(suspended=suspended)
        owner.suspended = suspended
        if changed:
            events.emit((OwnerSuspended if suspended else OwnerReinstated)(owner, at=now))
    return bool(changed)


def login_challenges_purge() -> int:
    """2FA challenges are useless after their 5 minutes; keep a day for the audit trail."""
    deleted, _ = LoginChallenge.objects.filter(expires_at__lt=timezone.now() - timedelta(days=1)).delete()
    return deleted


# --- Owner panel -----------------------------------------------------------------------


def panel_login(*, email: str, password: str, ip: str) -> LoginResult:
    """Check an owner's or manager's password for the owner panel, counting failures per email +
    IP like the agent sign-in. A TOTP-enrolled user gets a 2FA challenge (two_factor_verify)."""
    user = _signed_in_user(email=email, password=password, ip=ip)
    if not display_member(user):  # kitchen users sign in here too, for the kitchen display
        raise DomainError(ErrorCode.FORBIDDEN, "Agents sign in to the agent dashboard, not the owner panel.")
    if _has_two_factor(user):
        challenge = LoginChallenge.objects.create(
            public_id=secrets.token_urlsafe(32),  # type: ignore[misc]  # a property that stores its hash
            user=user,
            expires_at=timezone.now() + settings.TWO_FACTOR_CHALLENGE_TTL,
        )
        return LoginResult(challenge=challenge)
    return LoginResult(user=user)


def agent_create(*, owner: Owner | None, name: str, email: str, password: str) -> User:
    """A new agent of `owner`, offline until it signs in and sets its status."""
    email = User.objects.normalize_email(email).strip().lower()
    with transaction.atomic():
        if User.objects.filter(email__iexact=email).exists():
            raise DomainError(
                ErrorCode.VALIDATION_ERROR, "The agent is invalid.", details={"email": ["This email is already used."]}
            )
        return User.objects.create_user(email, password, name=name, owner=owner, is_agent=True)


def agent_reset_two_factor(*, agent: User) -> int:
    """Remove the agent's TOTP devices (a lost phone): its next sign-in needs the password only."""
    with transaction.atomic():
        deleted, _ = SealedTotpDevice.objects.filter(user=agent).delete()
        LoginChallenge.objects.filter(user=agent, used_at=None).update(used_at=timezone.now())
    return deleted


BUSINESS_SETTINGS_FIELDS = (
    "name",
    "logo_url",
    "currency",
    "tax_rate_bps",
    "primary_color",
    "attract_message",
    "session_recording",
    "timezone",
    "address",
)


def business_update(*, business: Business, **fields: Any) -> Business:
    """Change a business's settings (what kiosks show, money, session recording). Fields are
    validated by the model's own validators."""
    from django.core.exceptions import ValidationError

    unknown = set(fields) - set(BUSINESS_SETTINGS_FIELDS)
    if unknown:
        raise ValueError(f"not business settings: {sorted(unknown)}")
    if isinstance(fields.get("address"), str):  # trimmed lines, no blank ones, "\n" between them
        fields["address"] = "\n".join(line.strip() for line in fields["address"].splitlines() if line.strip())
    with transaction.atomic():
        for name, value in fields.items():
            setattr(business, name, value)
        try:
            business.full_clean(exclude=["owner"])
        except ValidationError as exc:
            raise DomainError(
                ErrorCode.VALIDATION_ERROR, "The settings are invalid.", details=exc.message_dict
            ) from exc
        business.save(update_fields=list(fields))
        events.emit(BusinessChanged(business))
    return business


def business_saved_elsewhere(business: Business) -> None:
    """A business the admin's forms saved (they validate and save it themselves): what depends on
    its settings hears of it as from `business_update`. Call inside the save's transaction."""
    events.emit(BusinessChanged(business))


def totp_enrol_start(*, user: User) -> SealedTotpDevice:
    """An unconfirmed TOTP device for `user` (replacing an earlier unconfirmed one); it counts
    only once confirmed with a code from the authenticator app."""
    with transaction.atomic():
        SealedTotpDevice.objects.filter(user=user, confirmed=False).delete()
        return SealedTotpDevice.objects.create(user=user, name="authenticator", confirmed=False)


def totp_enrol_confirm(*, user: User, code: str) -> bool:
    """Confirm the pending device with a current code; False if the code is wrong."""
    with transaction.atomic():
        device = SealedTotpDevice.objects.select_for_update().filter(user=user, confirmed=False).first()
        if device is None or not code or not device.verify_token(code):
            return False
        SealedTotpDevice.objects.filter(user=user, confirmed=True).delete()
        device.confirmed = True
        device.save(update_fields=["confirmed"])
    return True


def totp_disable(*, user: User) -> None:
    SealedTotpDevice.objects.filter(user=user).delete()
