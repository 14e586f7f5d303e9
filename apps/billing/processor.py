"""The one place that talks to the payment processor, through the official `stripe` library.

PROCESSOR_API_BASE points the library elsewhere (a local stand-in in tests). Without
PROCESSOR_SECRET_KEY (the embedded default) every call answers 503 PROCESSOR_NOT_CONFIGURED.
"""

import stripe
from django.conf import settings

from apps.core.errors import DomainError, ErrorCode


def client() -> stripe.StripeClient:
    if not settings.PROCESSOR_SECRET_KEY:
        raise DomainError(ErrorCode.PROCESSOR_NOT_CONFIGURED, "Payments are not configured on this server.")
    base = {"api": settings.PROCESSOR_API_BASE} if settings.PROCESSOR_API_BASE else {}
    return stripe.StripeClient(settings.PROCESSOR_SECRET_KEY, base_addresses=base, max_network_retries=2)


def call(operation, *args, **kwargs):
    """Run a processor call, turning the library's errors into a clear 502."""
    try:
        return operation(*args, **kwargs)
    except stripe.StripeError as exc:
        message = getattr(exc, "user_message", None) or str(exc) or exc.__class__.__name__
        raise DomainError(ErrorCode.PROCESSOR_ERROR, f"The payment processor refused: {message}") from exc
