"""The Pusher HTTP API, so the official `pusher` server libraries can publish through us:
POST /apps/{app_id}/events and POST /apps/{app_id}/batch_events, signed as Pusher signs them, and
POST /apps/{app_id}/users/{user_id}/events (to a signed-in user's connections; the libraries'
`send_to_user` publishes to its `#server-to-user-{id}` through /events, also accepted).
What is subscribed (the read side) and terminate_connections are in http_api_state.py."""

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api import parsers
from apps.api.drf_request import django_request
from apps.api.operations import Answer, operation
from apps.api.views import PublicAPIView
from apps.core.errors import DomainError, ErrorCode
from apps.realtime import protocol
from apps.realtime.broadcast import layer_message, send_now
from apps.realtime.protocol import FanoutMessage
from apps.realtime.signing import HTTP_API_MAX_SKEW_SECONDS, http_api_request_error
from apps.realtime.user_channels import USER_CHANNEL_PREFIX, user_channel, valid_target, valid_user_id

MAX_CHANNELS_PER_EVENT = 100
MAX_BATCH = 10
MAX_DATA_BYTES = 10 * 1024


class PusherSignatureAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[None, str]:
        wrapped = django_request(request)
        error = http_api_request_error(
            method=wrapped.method or "",
            path=wrapped.path,
            params=wrapped.GET.dict(),
            body=wrapped.body,
        )
        if error is not None:
            raise exceptions.AuthenticationFailed(error)
        return (None, "pusher-app")

    def authenticate_header(self, request: Request) -> str:
        return "Pusher"


class PusherSignatureScheme(OpenApiAuthenticationExtension):
    target_class = "apps.realtime_http.http_api.PusherSignatureAuthentication"
    name = "pusherSignature"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, object]:
        return {
            "type": "apiKey",
            "in": "query",
            "name": "auth_signature",
            "description": (
                "Signed as Pusher signs its HTTP API (the official server libraries do it): the query "
                "string carries `auth_key` (the app key), `auth_timestamp` (Unix seconds, within "
                f"{HTTP_API_MAX_SKEW_SECONDS} s of the server's clock), `auth_version=1.0`, `body_md5` "
                "(hex MD5 of the body, when there is one) and `auth_signature`: the hex HMAC-SHA256, "
                "keyed with the app secret, of `METHOD\\npath\\n` followed by every other query "
                "parameter, names lower-cased and sorted, as `name=value` joined by `&`."
            ),
        }


class SignedHttpApiView(PublicAPIView):
    """Every Pusher HTTP API view: the app id in the path (when there is one), then the signature."""

    authentication_classes = [PusherSignatureAuthentication]

    def initial(self, request: Request, *args: object, **kwargs: object) -> None:
        if "app_id" in kwargs and kwargs["app_id"] != str(settings.REALTIME_APP_ID):
            raise exceptions.NotFound("Unknown app id.")
        super().initial(request, *args, **kwargs)  # authenticates: the signature is checked first

    def body_json(self, request: Request) -> object:
        try:
            return parsers.loads(django_request(request).body or b"{}")  # the API's depth and NUL limits
        except parsers.BodyRejected as exc:
            raise exceptions.ParseError(str(exc)) from None
        except ValueError:
            raise exceptions.ParseError("The body is not JSON.") from None


# The bodies, for the schema only: the views validate by hand (_event_message) with Pusher's
# limits and messages, which these serializers repeat from the same constants.


def _target_field(*, required: bool = True, help_text: str | None = None) -> serializers.RegexField:
    """A channel name, or a user's `#server-to-user-{user id}` (apps/realtime/user_channels.py)."""
    pattern = "^(" + USER_CHANNEL_PREFIX + ")?" + protocol.CHANNEL_NAME_RE.pattern.removeprefix("^")
    max_length = protocol.MAX_CHANNEL_NAME + len(USER_CHANNEL_PREFIX)
    return serializers.RegexField(pattern, max_length=max_length, required=required, help_text=help_text)


# What every event sent through the HTTP API carries (no docstring: drf-spectacular would show a
# base class's docstring as the description of every serializer built on it).
class _EventFields(serializers.Serializer[None]):
    name = serializers.CharField(max_length=200)
    # Pusher names the field `data`, as DRF's Serializer names its output.
    data = serializers.CharField(  # type: ignore[assignment]
        allow_blank=True,
        max_length=MAX_DATA_BYTES,
        help_text="The event's data, JSON-encoded by the server library; at most 10 KB.",
    )


class PusherEventIn(_EventFields):
    channels = serializers.ListField(
        child=_target_field(),
        min_length=1,
        max_length=MAX_CHANNELS_PER_EVENT,
        required=False,
        help_text=(
            "The channels to publish to (Pusher channel names), or `#server-to-user-{user_id}` for a signed-in "
            "user's connections; give either `channels` or `channel`."
        ),
    )
    channel = _target_field(required=False, help_text="One channel, instead of `channels`.")
    socket_id = serializers.RegexField(
        protocol.SOCKET_ID_RE.pattern,
        required=False,
        help_text="A connection's `digits.digits` socket id, left out of the recipients.",
    )
    info = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="Accepted for Pusher's libraries; ignored (the answer is always `{}`).",
    )


PusherBatchEventsIn = inline_serializer(
    "PusherBatchEventsIn",
    {"batch": serializers.ListField(child=PusherEventIn(), min_length=1, max_length=MAX_BATCH)},
)
# Plain schemas: drf-spectacular drops a serializer without fields, so `{}` could not be one.
EMPTY_OBJECT = {"type": "object", "maxProperties": 0, "description": "`{}`, as Pusher answers."}
BATCH_EVENTS_OUT = {
    "type": "object",
    "properties": {"batch": {"type": "array", "items": EMPTY_OBJECT}},
    "required": ["batch"],
}


def _event_message(event: object) -> FanoutMessage:
    """Validate one event of the HTTP API and turn it into its channel-layer message."""
    if not isinstance(event, dict):
        raise exceptions.ValidationError({"event": ["Each event is a JSON object."]})
    name, data = event.get("name"), event.get("data")
    channels = event.get("channels") if "channels" in event else [event.get("channel")]
    errors: dict[str, list[str]] = {}
    if not isinstance(name, str) or not 0 < len(name) <= 200:
        errors["name"] = ["A string of 1 to 200 characters."]
    if not isinstance(data, str):
        errors["data"] = ["A string (JSON-encoded by the server library)."]
    elif len(data.encode()) > MAX_DATA_BYTES:
        errors["data"] = ["At most 10 KB."]
    if not isinstance(channels, list) or not 0 < len(channels) <= MAX_CHANNELS_PER_EVENT:
        errors["channels"] = [f"1 to {MAX_CHANNELS_PER_EVENT} channel names."]
    elif not all(valid_target(channel) for channel in channels):
        errors["channels"] = ["Invalid channel name."]
    socket_id = event.get("socket_id")
    if socket_id is not None and not (isinstance(socket_id, str) and protocol.SOCKET_ID_RE.match(socket_id)):
        errors["socket_id"] = ["Use the `digits.digits` socket id of a connection."]
    if errors:
        raise exceptions.ValidationError(errors)
    # Each is of the type checked above (valid targets are strings).
    targets = [str(channel) for channel in channels] if isinstance(channels, list) else []
    return layer_message(targets, str(name), data, skip_socket_id=socket_id)


class EventsView(SignedHttpApiView):
    @operation(
        Answer(EMPTY_OBJECT),
        request=PusherEventIn,
        description=f"Pusher's `POST /apps/{{app_id}}/events`: one event to 1 to {MAX_CHANNELS_PER_EVENT} channels.",
    )
    def post(self, request: Request, app_id: str) -> Response:
        """Publish an event (Pusher HTTP API)"""
        send_now(_event_message(self.body_json(request)))
        return Response({})


class BatchEventsView(SignedHttpApiView):
    @operation(
        Answer(BATCH_EVENTS_OUT),
        request=PusherBatchEventsIn,
        description=(
            f"Pusher's `POST /apps/{{app_id}}/batch_events`: 1 to {MAX_BATCH} events, all validated before any is sent."
        ),
    )
    def post(self, request: Request, app_id: str) -> Response:
        """Publish a batch of events (Pusher HTTP API)"""
        body = self.body_json(request)
        batch = body.get("batch") if isinstance(body, dict) else None
        if not isinstance(batch, list) or not 0 < len(batch) <= MAX_BATCH:
            raise exceptions.ValidationError({"batch": [f"1 to {MAX_BATCH} events."]})
        messages = [_event_message(event) for event in batch]  # all valid before any is sent
        for message in messages:
            send_now(message)
        return Response({"batch": [{} for _ in batch]})


class PusherUserEventIn(_EventFields):
    pass  # a name and data, to the user named in the path


class UserEventsView(SignedHttpApiView):
    @operation(Answer(EMPTY_OBJECT), request=PusherUserEventIn)
    def post(self, request: Request, app_id: str, user_id: str) -> Response:
        """Send an event to a user (Pusher HTTP API)

        Every connection signed in (`pusher:signin`) as `user_id`, on every web process, receives
        the event on `#server-to-user-{user_id}` (pusher-js: `pusher.user.bind(name, fn)`). The same
        as publishing to that name through `/events`, which the libraries' `send_to_user` does."""
        if not valid_user_id(user_id):  # Pusher's user ids share the channel alphabet
            raise DomainError(ErrorCode.MALFORMED_REQUEST, "Invalid user id.")
        body = self.body_json(request)
        if not isinstance(body, dict):
            raise exceptions.ValidationError({"event": ["The body is a JSON object."]})
        event = {"name": body.get("name"), "data": body.get("data"), "channels": [user_channel(user_id)]}
        send_now(_event_message(event))
        return Response({})
