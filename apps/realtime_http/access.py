"""Who may join which channel (DESIGN.md "Real-time"), and the signed answer a Pusher client
needs to subscribe. Anything not granted here is refused with 403. This rule knows users and
kiosks, so it lives in the realtime surface (apps/realtime_http), not in the infrastructure
below it (apps/realtime), which imports no domain app (docs/decisions/payments.md "Domain events").

- an agent: only `private-agent.{its id}`;
- an owner panel user (panel_role, not an agent): only `presence-owner.{its owner}`;
- a kiosk: `private-kiosk.{its id}` and, as a quiet member {id, name, location}, `presence-owner.{its owner}`
  (listed and announced to the panel; it sees no other member and hears nothing there);
- `private-call.{session id}` (the call's signalling and chat): the session's kiosk and its current
  agent, while the session is active or in payment (apps/sessions/video_call.may_join_call). Its
  members change under a valid signature (a transfer, the end), so the signature names the signer
  (channel_data `{"user_id": "user.3"}`) and the WebSocket server asks `call_member_now` again at
  every subscription (apps/realtime/membership.py): a signature kept from before is refused.

Presence member ids are strings and say what the member is (`kiosk.12`, `user.3`), so a kiosk and
a user with the same primary key stay two members.
"""

import json
from collections.abc import Mapping
from typing import NotRequired, TypedDict

from apps.accounts.actors import panel_member
from apps.accounts.models import User
from apps.core.errors import DomainError, ErrorCode
from apps.kiosks.bodies import kiosk_brief
from apps.kiosks.models import Kiosk
from apps.realtime import membership
from apps.realtime.channels import agent_channel, call_channel, kiosk_channel, owner_channel
from apps.realtime.signing import channel_auth
from apps.sessions.video_call import may_join_call

Member = tuple[str, Mapping[str, object]]  # presence: (user_id, user_info)


class ChannelAuthorization(TypedDict):
    auth: str
    channel_data: NotRequired[str]


def _refuse(channel: str) -> DomainError:
    return DomainError(ErrorCode.FORBIDDEN, "You may not subscribe to {channel}.", params={"channel": channel})


def user_may_join(user: User, channel: str) -> tuple[bool, Member | None]:
    call = call_channel.key(channel)
    if user.is_agent:
        if call is not None:
            return may_join_call(call, agent=user), None
        return channel == agent_channel(user.pk), None
    if panel_member(user) and user.owner_id is not None and channel == owner_channel(user.owner_id):
        return True, (f"user.{user.pk}", {"id": str(user.pk), "name": user.name, "panel_role": user.panel_role})
    return False, None


def kiosk_may_join(kiosk: Kiosk, channel: str) -> tuple[bool, Member | None]:
    call = call_channel.key(channel)
    if channel == kiosk_channel(kiosk.pk):
        return True, None
    if call is not None:
        return may_join_call(call, kiosk=kiosk), None
    if channel == owner_channel(kiosk.business.owner_id):
        return True, (f"kiosk.{kiosk.pk}", kiosk_brief(kiosk))
    return False, None


def call_member_now(channel: str, member: object) -> bool:
    """The call channel's rule at subscription time (apps/realtime/membership.py): whether the
    member the signature names (`user.3`, `kiosk.12`) takes part in the call now."""
    kind, _, pk = str(member).partition(".")
    if not pk.isdigit():
        return False
    public_id = channel.removeprefix(call_channel.prefix)
    if kind == "user":
        agent = User.objects.filter(pk=int(pk)).first()
        return agent is not None and may_join_call(public_id, agent=agent)
    if kind == "kiosk":
        kiosk = Kiosk.objects.filter(pk=int(pk)).first()
        return kiosk is not None and may_join_call(public_id, kiosk=kiosk)
    return False


def channel_authorization(
    *, socket_id: str, channel: str, user: User | None = None, kiosk: Kiosk | None = None
) -> ChannelAuthorization:
    """The body /broadcasting/auth answers: `{auth}`, plus `channel_data` for presence."""
    if user is not None:
        (allowed, member), signer = user_may_join(user, channel), f"user.{user.pk}"
    elif kiosk is not None:
        (allowed, member), signer = kiosk_may_join(kiosk, channel), f"kiosk.{kiosk.pk}"
    else:
        raise _refuse(channel)
    if not allowed:
        raise _refuse(channel)
    if member is None and membership.rule_for(channel) is not None:
        signed = json.dumps({"user_id": signer}, separators=(",", ":"))
        return {"auth": channel_auth(socket_id, channel, signed), "channel_data": signed}
    if member is None:
        return {"auth": channel_auth(socket_id, channel)}
    user_id, user_info = member
    data: dict[str, object] = {"user_id": user_id, "user_info": user_info}
    if kiosk is not None:
        # A kiosk is on its owner's channel to be seen online, nothing more: a quiet member sees
        # no other member (no panel users' names), hears nothing there and sends no client
        # events there, and its join costs the same however many kiosks the owner has.
        data["quiet"] = True
    channel_data = json.dumps(data, separators=(",", ":"))
    return {"auth": channel_auth(socket_id, channel, channel_data), "channel_data": channel_data}
