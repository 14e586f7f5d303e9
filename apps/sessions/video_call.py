"""Video tokens for the two participants of a session (spec 2 "Video token", 4.1, 4.2, 8): the
session decides who joins its call; apps/video builds the tokens and keeps the recordings.

The channel is the session's public id. Only the session's kiosk and the agent who accepted it
get tokens, and only while the session is `active` or in `payment`. Issuing a token writes
nothing; a refresh is simply a new token for the same channel.

Uids (integers, stable per participant, the two ranges never overlap):
- an agent joins as its user id: 1 .. 999,999,999;
- a kiosk joins as 1,000,000,000 + its kiosk id.
Both stay below 2**31, so SDKs that hold the uid in a signed 32-bit integer see it unchanged.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from apps.accounts.models import User
from apps.core.errors import DomainError, ErrorCode
from apps.kiosks.models import Kiosk
from apps.realtime.channels import call_channel
from apps.sessions import selectors
from apps.sessions.models import ENDED_STATUSES, Session, SessionStatus
from apps.video import tokens, webrtc

KIOSK_UID_BASE = 1_000_000_000
MAX_UID = 2**31 - 1

ROLE_PUBLISHER = "publisher"
ROLE_SUBSCRIBER = "subscriber"
ROLES = (ROLE_PUBLISHER, ROLE_SUBSCRIBER)
_PRIVILEGES_BY_ROLE = {
    ROLE_PUBLISHER: tokens.PUBLISHER_PRIVILEGES,
    ROLE_SUBSCRIBER: tokens.SUBSCRIBER_PRIVILEGES,
}
_LIVE_STATUSES = (SessionStatus.ACTIVE, SessionStatus.PAYMENT)


@dataclass(frozen=True)
class VideoToken:
    app_id: str
    token: str
    channel: str
    uid: int
    expires_at: datetime
    # The self-hosted provider only (VIDEO_PROVIDER = "webrtc"): its ICE servers, and the private
    # channel its offer, answer and candidates go through.
    ice_servers: list[dict[str, object]] | None = None
    signalling_channel: str | None = None
    ice_restart_seconds: float | None = None


def agent_uid(agent: User) -> int:
    if not 0 < agent.pk < KIOSK_UID_BASE:
        raise ValueError(f"Agent id {agent.pk} is outside the agent uid range.")
    return agent.pk


def kiosk_uid(kiosk: Kiosk) -> int:
    uid = KIOSK_UID_BASE + kiosk.pk
    if not KIOSK_UID_BASE < uid <= MAX_UID:
        raise ValueError(f"Kiosk id {kiosk.pk} is outside the kiosk uid range.")
    return uid


def video_token_for_kiosk(*, kiosk: Kiosk, channel: str, role: str = ROLE_PUBLISHER) -> VideoToken:
    """A token for the kiosk whose session `channel` is; another kiosk's session is 404."""
    session = selectors.session_for_kiosk(kiosk=kiosk, public_id=channel)
    _ensure_live(session)
    return _issue(channel=session.public_id, uid=kiosk_uid(kiosk), role=role)


def video_token_for_agent(*, agent: User, channel: str, role: str = ROLE_PUBLISHER) -> VideoToken:
    """A token for the agent who accepted session `channel`. Any other agent gets 404, the same
    answer as for a session of another owner; a session nobody accepted yet is 409."""
    session = selectors.session_visible_to_agent(agent=agent, public_id=channel)
    if session.status != SessionStatus.PENDING and session.agent_id != agent.pk:
        raise DomainError(ErrorCode.SESSION_NOT_FOUND, "No such session.")
    _ensure_live(session)
    return _issue(channel=session.public_id, uid=agent_uid(agent), role=role)


def may_join_call(public_id: str, *, agent: User | None = None, kiosk: Kiosk | None = None) -> bool:
    """Whether this agent or kiosk takes part in session `public_id`'s call right now: the
    session's kiosk, or the agent it is assigned to now (after a transfer, the new one only),
    while the session is live. The same rule as the tokens; the signalling channel's auth asks
    it on every subscription."""
    live = Session.objects.filter(public_id=public_id, status__in=_LIVE_STATUSES)
    if agent is not None:
        return agent.is_agent and live.filter(agent=agent).exists()
    return kiosk is not None and live.filter(kiosk=kiosk).exists()


def _ensure_live(session: Session) -> None:
    if session.status in _LIVE_STATUSES:
        return
    if session.status in ENDED_STATUSES:
        raise DomainError(ErrorCode.SESSION_ALREADY_ENDED, "This session has already ended.")
    raise DomainError(
        ErrorCode.INVALID_STATE,
        "A {status} session has no video yet: an agent must accept it first.",
        params={"status": session.status},
    )


def _issue(*, channel: str, uid: int, role: str) -> VideoToken:
    issued_at = timezone.now().replace(microsecond=0)
    lifetime = settings.VIDEO_TOKEN_TTL_SECONDS  # the spec's 60 minutes unless configured
    if settings.VIDEO_PROVIDER == "webrtc":
        return _issue_webrtc(channel=channel, uid=uid, expires_at=issued_at + timedelta(seconds=lifetime))
    token = tokens.build_rtc_token(
        app_id=settings.VIDEO_APP_ID,
        app_certificate=settings.VIDEO_APP_CERTIFICATE,
        channel=channel,
        uid=uid,
        privileges=dict.fromkeys(_PRIVILEGES_BY_ROLE[role], lifetime),
        issue_ts=int(issued_at.timestamp()),
        expire=lifetime,
        salt=tokens.new_salt(),
    )
    return VideoToken(
        app_id=settings.VIDEO_APP_ID,
        token=token,
        channel=channel,
        uid=uid,
        expires_at=issued_at + timedelta(seconds=lifetime),
    )


def _issue_webrtc(*, channel: str, uid: int, expires_at: datetime) -> VideoToken:
    """The same answer for the self-hosted provider: a signed grant to the session's signalling
    and the ICE servers (both roles publish in a one-to-one call, so the role changes nothing)."""
    return VideoToken(
        app_id=webrtc.APP_ID,
        token=webrtc.grant(channel=channel, uid=uid, expires_at=expires_at),
        channel=channel,
        uid=uid,
        expires_at=expires_at,
        ice_servers=webrtc.ice_servers(uid=uid, expires_at=expires_at),
        signalling_channel=call_channel(channel),
        ice_restart_seconds=settings.VIDEO_ICE_RESTART_SECONDS,
    )
