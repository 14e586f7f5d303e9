"""Which error codes each operation can answer, for the OpenAPI schema (apps.api.schema).

Most are derived from the view (authentication, CSRF, TLS, permissions, throttles, body, query
and path parameters) by `generic_errors`. The refusals a service makes are listed per operation
in DOMAIN_ERRORS, one place to keep in step with the services; tests/api/test_api_fuzz.py checks every
answer's status against the schema, so a missing entry fails the fuzz run."""

from collections.abc import Sequence

from apps.api.surfaces import Surface
from apps.core.errors import STATUS_BY_CODE, ErrorCode

E = ErrorCode
INSUFFICIENT_SCOPE = "INSUFFICIENT_SCOPE"  # the owner API's 403 (apps.owner_api.api.base)

# Codes whose status is not in STATUS_BY_CODE.
EXTRA_STATUS = {INSUFFICIENT_SCOPE: 403}

_SESSION = [E.SESSION_NOT_FOUND]
_AGENT_SESSION = [E.SESSION_NOT_FOUND, E.SESSION_NOT_OWNED, E.SESSION_ALREADY_ENDED, E.INVALID_STATE]
_PAYMENT_START = [E.ORDER_EMPTY, E.PROCESSOR_ACCOUNT_NOT_READY, E.PROCESSOR_CALL_IN_PROGRESS]
_PAYMENT = [*_AGENT_SESSION, *_PAYMENT_START]
_PROCESSOR = [E.PROCESSOR_ERROR, E.PROCESSOR_NOT_CONFIGURED, E.PROCESSOR_UNAVAILABLE]
_SELF_SERVICE_PAYMENT = [
    *_SESSION,
    E.SESSION_ALREADY_ACCEPTED,
    E.SESSION_ALREADY_ENDED,
    E.INVALID_STATE,
    *_PAYMENT_START,
]
_VIDEO = [E.SESSION_NOT_FOUND, E.SESSION_ALREADY_ENDED, E.INVALID_STATE]
_SIGN_IN = [E.INVALID_CREDENTIALS, E.ACCOUNT_DISABLED, E.PANEL_ONLY_ACCOUNT, E.OWNER_SUSPENDED, E.RATE_LIMITED]

DOMAIN_ERRORS: dict[str, Sequence[str]] = {
    # Kiosk API
    "POST /api/public/kiosks/pair": [
        E.PAIRING_CODE_INVALID,
        E.PAIRING_CODE_EXPIRED,
        E.PAIRING_CODE_ALREADY_USED,
        E.DEVICE_ALREADY_PAIRED,
        E.OWNER_SUSPENDED,
    ],
    "POST /api/public/sessions/start": [E.SESSION_IN_PROGRESS, E.OWNER_SUSPENDED],
    "GET /api/public/sessions/{public_id}/status": _SESSION,
    "POST /api/public/sessions/{public_id}/cancel": [*_SESSION, E.SESSION_ALREADY_ENDED, E.INVALID_STATE],
    "GET /api/public/sessions/{public_id}/order": _SESSION,
    "GET /api/public/sessions/{public_id}/receipt/print": _SESSION,
    "POST /api/public/sessions/{public_id}/receipt/print": [*_SESSION, E.INVALID_STATE],
    "POST /api/public/sessions/{public_id}/point": [*_SESSION, E.SESSION_ALREADY_ENDED, E.INVALID_STATE],
    "GET /api/public/sessions/{public_id}/payment": [*_SESSION, E.NOT_FOUND],
    # Self-service: the customer orders and pays alone while no agent holds the session.
    "POST /api/public/sessions/{public_id}/order": [
        *_SESSION,
        E.SESSION_ALREADY_ACCEPTED,
        E.SESSION_ALREADY_ENDED,
        E.ORDER_LOCKED,
    ],
    "POST /api/public/sessions/{public_id}/payment": [*_SELF_SERVICE_PAYMENT, *_PROCESSOR],
    "POST /api/public/sessions/{public_id}/payment/cancel": [*_SELF_SERVICE_PAYMENT, *_PROCESSOR],
    "POST /api/public/sessions/{public_id}/payment/card-fields": [
        *_SESSION,
        E.FORBIDDEN,
        E.INVALID_STATE,
        E.PROCESSOR_CALL_IN_PROGRESS,
        *_PROCESSOR,
    ],
    "GET /api/public/sessions/{public_id}/chat": _SESSION,
    "POST /api/public/sessions/{public_id}/chat": _VIDEO,
    "GET /api/public/video/token": _VIDEO,
    "POST /api/public/video/token/refresh": _VIDEO,
    "POST /api/public/broadcasting/auth": [E.FORBIDDEN],
    # Agent API
    "POST /api/login": [E.CSRF_MISMATCH, *_SIGN_IN],
    "POST /api/login/2fa": [
        E.CSRF_MISMATCH,
        E.CHALLENGE_NOT_FOUND,
        E.CHALLENGE_EXPIRED,
        E.CHALLENGE_ALREADY_USED,
        E.INVALID_2FA_CODE,
        E.ACCOUNT_DISABLED,
        E.OWNER_SUSPENDED,
        E.RATE_LIMITED,
    ],
    "DELETE /api/tokens/{token_id}": [E.NOT_FOUND],
    "POST /api/sessions/{public_id}/accept": [
        E.SESSION_NOT_FOUND,
        E.SESSION_ALREADY_ACCEPTED,
        E.SESSION_ALREADY_ENDED,
        E.AGENT_HAS_ACTIVE_SESSION,
        E.AGENT_AT_CAPACITY,
        E.AGENT_IN_CONVERSATION,
        E.INVALID_STATE,
        E.ACCOUNT_DISABLED,
    ],
    "GET /api/sessions/{public_id}/transfer": _AGENT_SESSION,
    "POST /api/sessions/{public_id}/transfer": [
        *_AGENT_SESSION,
        E.TRANSFER_IN_PROGRESS,
        E.TRANSFER_TARGET_UNAVAILABLE,
        E.VALIDATION_ERROR,
    ],
    "DELETE /api/sessions/{public_id}/transfer": [
        E.SESSION_NOT_FOUND,
        E.SESSION_NOT_OWNED,
        E.TRANSFER_NOT_PENDING,
        E.TRANSFER_ALREADY_ACCEPTED,
    ],
    "POST /api/sessions/{public_id}/end": [*_AGENT_SESSION, E.PROCESSOR_CALL_IN_PROGRESS, *_PROCESSOR],
    "POST /api/sessions/{public_id}/show": [E.SESSION_NOT_FOUND, E.SESSION_ALREADY_ENDED, E.INVALID_STATE],
    "POST /api/sessions/{public_id}/read-aloud": _AGENT_SESSION,
    "POST /api/sessions/{public_id}/payment": [*_PAYMENT, *_PROCESSOR],
    "POST /api/sessions/{public_id}/payment/cancel": [*_PAYMENT, *_PROCESSOR, E.AGENT_IN_CONVERSATION],
    "GET /api/sessions/{public_id}": [E.SESSION_NOT_FOUND],
    "GET /api/sessions/current": [E.NO_ACTIVE_SESSION],
    "GET /api/menu": [E.NO_ACTIVE_SESSION],
    "POST /api/orders": [
        E.SESSION_NOT_FOUND,
        E.SESSION_NOT_OWNED,
        E.SESSION_ALREADY_ENDED,
        E.ORDER_LOCKED,
    ],
    "GET /api/sessions/{public_id}/chat": _SESSION,
    "POST /api/sessions/{public_id}/chat": _VIDEO,
    "GET /api/video/token": _VIDEO,
    "POST /api/video/token/refresh": _VIDEO,
    "POST /broadcasting/auth": [E.FORBIDDEN],
    # Token API
    "POST /api/auth/login": [*_SIGN_IN, E.INVALID_2FA_CODE],
    "DELETE /api/v1/webhooks/{subscription_id}": [E.NOT_FOUND],
    "GET /api/v1/reports/sessions": [E.NOT_FOUND],  # `business` not the owner's
    "GET /api/v1/reports/items": [E.NOT_FOUND],
    # Owner API
    "POST /api/owner/kiosks/pairing-codes": [E.NOT_FOUND],
    "POST /api/owner/kiosks/{kiosk_id}/unpair": [E.NOT_FOUND],
    "PATCH /api/owner/kiosks/{kiosk_id}": [E.NOT_FOUND],
    "PATCH /api/owner/menu/items/{item_id}": [E.NOT_FOUND],
    "GET /api/owner/reports/sessions": [E.NOT_FOUND],
    "GET /api/owner/reports/items": [E.NOT_FOUND],
    "POST /api/owner/orders/{order_id}/status": [E.NOT_FOUND, E.INVALID_STATE, E.FORBIDDEN],
    "POST /api/owner/printers": [E.NOT_FOUND],  # `business_id` not the owner's
    "PUT /api/owner/agents/{agent_id}/capacity": [E.NOT_FOUND],
    # nothing printed yet; a board's token
    "POST /api/displays/kitchen/tickets/{order_id}/reprint": [E.INVALID_STATE, E.FORBIDDEN],
    "POST /api/owner/orders/{order_id}/refund": [
        E.NOT_FOUND,
        E.REFUND_NOT_ALLOWED,
        E.PROCESSOR_CALL_IN_PROGRESS,
        E.FORBIDDEN,
        *_PROCESSOR,
    ],
    # Pusher HTTP API (apps/realtime_http): a channel or user id Pusher refuses in the path is a 400
    "GET /apps/{app_id}/channels/{channel}": [E.MALFORMED_REQUEST],
    "GET /apps/{app_id}/channels/{channel}/users": [E.MALFORMED_REQUEST],
    "POST /apps/{app_id}/users/{user_id}/terminate_connections": [E.MALFORMED_REQUEST],
    "POST /apps/{app_id}/users/{user_id}/events": [E.MALFORMED_REQUEST],
}

_UNAUTHENTICATED: dict[Surface | None, str] = {Surface.KIOSK: E.DEVICE_TOKEN_INVALID}
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def status_of(code: str) -> int:
    return EXTRA_STATUS.get(code) or STATUS_BY_CODE[ErrorCode(code)]


def generic_errors(
    *,
    surface: Surface | None,
    method: str,
    authenticated: bool,
    session_auth: bool,
    throttled: bool,
    has_body: bool,
    has_query: bool,
    has_path: bool,
    permission_codes: list[str],
) -> list[str]:
    """The codes any operation of this shape can answer, whatever its service does."""
    codes: list[str] = [E.NOT_ACCEPTABLE, E.SERVICE_UNAVAILABLE]  # any Accept we cannot meet; a lost database
    if authenticated:
        codes.append(_UNAUTHENTICATED.get(surface, E.UNAUTHENTICATED))
    if session_auth and method in _UNSAFE:
        codes.append(E.CSRF_MISMATCH)
    if surface in (Surface.TOKEN, Surface.OWNER):
        codes.append(E.TLS_REQUIRED)
    if authenticated and surface in (Surface.TOKEN, Surface.OWNER):
        codes.append(
            E.OWNER_SUSPENDED
        )  # a suspended owner's token or key (apps.accounts.api.authentication, apps.owner_api.api.authentication)
    codes.extend(permission_codes)
    if throttled:
        codes.append(E.RATE_LIMITED)
    if has_body:
        codes.extend([E.MALFORMED_REQUEST, E.PAYLOAD_TOO_LARGE, E.UNSUPPORTED_MEDIA_TYPE, E.VALIDATION_ERROR])
    if has_query:
        codes.extend([E.MALFORMED_REQUEST, E.VALIDATION_ERROR])
    if has_path:
        codes.append(E.NOT_FOUND)
    return codes
