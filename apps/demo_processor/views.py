"""The demo processor's HTTP surface, mounted at /demo-processor/ in demo mode (config/urls.py).

/v1/... answers the `stripe` library as the processor does: form-encoded requests with the
secret key as Bearer, the connected account in Stripe-Account, Idempotency-Key replayed, JSON
objects and processor-shaped errors. The kiosk's confirm takes JSON and the client secret (CORS
allows the kiosk app origins). Onboarding is a small page the owner is sent to from the panel;
each simulated reader has a page that shows what the reader shows and presents its demo cards
(readers/<id>/)."""

import hmac
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from apps.api import parsers
from apps.demo_processor import services, terminal
from apps.demo_processor.errors import DemoError, ProcessorJson, missing
from apps.demo_processor.models import DemoAccount, DemoIdempotentAnswer


def _method_not_allowed(allowed: str) -> JsonResponse:
    error = DemoError(405, "invalid_request_error", f"Use {allowed} on this URL.")
    return JsonResponse(error.body(), status=405, headers={"Allow": allowed})


def _authorised(request: HttpRequest) -> None:
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not given or not hmac.compare_digest(given.encode(), settings.PROCESSOR_SECRET_KEY.encode()):
        raise DemoError(401, "invalid_request_error", "Invalid API Key provided.")


def _params(request: HttpRequest) -> dict[str, str]:
    if request.content_type not in ("", "application/x-www-form-urlencoded"):
        raise DemoError(400, "invalid_request_error", "Send form-encoded parameters.")
    return {key: request.POST[key] for key in request.POST}


# An operation takes the request, the connected account, the form parameters and the route's own
# arguments (an intent id), and answers the processor's JSON object.
Operation = Callable[..., ProcessorJson]


def _api(operation: Operation) -> Callable[..., HttpResponse]:
    """An API call: authorised, idempotent by (account, Idempotency-Key), in one transaction."""

    @csrf_exempt
    def view(request: HttpRequest, **kwargs: str) -> HttpResponse:
        if request.method not in ("POST", "GET", "DELETE"):
            return _method_not_allowed("POST")
        try:
            _authorised(request)
            account_id = request.headers.get("Stripe-Account", "")[:64]
            params = _params(request) if request.method == "POST" else {}
            key = request.headers.get("Idempotency-Key", "")[:255] if request.method == "POST" else ""
            with transaction.atomic():
                if key:
                    earlier = DemoIdempotentAnswer.objects.filter(account_id=account_id, key=key).first()
                    if earlier is not None:
                        return JsonResponse(
                            earlier.body, status=earlier.status, headers={"Idempotent-Replayed": "true"}
                        )
                status, body = 200, operation(request, account_id=account_id, params=params, **kwargs)
                if key:
                    DemoIdempotentAnswer.objects.create(
                        account_id=account_id, key=key, path=request.path[:200], status=status, body=body
                    )
        except IntegrityError:  # a concurrent request with the same key answered first
            earlier = DemoIdempotentAnswer.objects.filter(account_id=account_id, key=key).first() if key else None
            if earlier is None:
                return DemoError(409, "idempotency_error", "A concurrent request conflicted: retry it.").response()
            return JsonResponse(earlier.body, status=earlier.status, headers={"Idempotent-Replayed": "true"})
        except DemoError as exc:
            return exc.response()
        return JsonResponse(body, status=status)

    return view


@_api
def payment_intents(request: HttpRequest, *, account_id: str, params: dict[str, str]) -> ProcessorJson:
    if request.method != "POST":
        raise DemoError(405, "invalid_request_error", "Listing intents is not part of the demo processor.")
    return services.intent_create(account_id=account_id, params=params)


@_api
def payment_intent(request: HttpRequest, *, account_id: str, params: dict[str, str], intent_id: str) -> ProcessorJson:
    # The library sends expand=["latest_charge"] as expand[0]=latest_charge in the query.
    expand = tuple(request.GET[key] for key in request.GET if key == "expand[]" or key.startswith("expand["))
    return services.intent_retrieve(account_id=account_id, intent_id=intent_id, expand=expand)


@_api
def payment_intent_cancel(
    request: HttpRequest, *, account_id: str, params: dict[str, str], intent_id: str
) -> ProcessorJson:
    return services.intent_cancel(account_id=account_id, intent_id=intent_id)


@_api
def refunds(request: HttpRequest, *, account_id: str, params: dict[str, str]) -> ProcessorJson:
    return services.refund_create(account_id=account_id, params=params)


@_api
def accounts(request: HttpRequest, *, account_id: str, params: dict[str, str]) -> ProcessorJson:
    return services.account_create(params=params)


@_api
def account_links(request: HttpRequest, *, account_id: str, params: dict[str, str]) -> ProcessorJson:
    """The onboarding page is on the server the owner came from: the host of the link's
    `return_url` (the panel's billing page). The service calls this API in-process
    (apps/demo_processor/in_process.py), so the request's own host says nothing about it."""
    path = reverse("demo_processor:onboarding", args=[params.get("account", "")[:64] or "-"])
    back = urlsplit(params.get("return_url") or "")
    if back.scheme in ("http", "https") and back.netloc:
        url = f"{back.scheme}://{back.netloc}{path}"
    else:
        url = request.build_absolute_uri(path)
    return services.account_link_create(params=params, onboarding_url=url)


def _only(request: HttpRequest, *methods: str) -> None:
    if request.method not in methods:
        raise DemoError(405, "invalid_request_error", f"Use {' or '.join(methods)} on this URL.")


@_api
def terminal_locations(request: HttpRequest, *, account_id: str, params: dict[str, str]) -> ProcessorJson:
    _only(request, "GET", "POST")
    if request.method == "GET":
        return terminal.location_list(account_id=account_id)
    return terminal.location_create(account_id=account_id, params=params)


@_api
def terminal_readers(request: HttpRequest, *, account_id: str, params: dict[str, str]) -> ProcessorJson:
    _only(request, "POST")
    return terminal.reader_create(account_id=account_id, params=params)


@_api
def terminal_reader(request: HttpRequest, *, account_id: str, params: dict[str, str], reader_id: str) -> ProcessorJson:
    _only(request, "GET", "DELETE")
    if request.method == "DELETE":
        return terminal.reader_delete(account_id=account_id, reader_id=reader_id)
    return terminal.reader_retrieve(account_id=account_id, reader_id=reader_id)


def _reader_action(act: Callable[..., ProcessorJson]) -> Callable[..., HttpResponse]:
    """POST .../readers/<reader_id>/<action>: one of the reader's actions, with the form's parameters."""

    @_api
    def view(request: HttpRequest, *, account_id: str, params: dict[str, str], reader_id: str) -> ProcessorJson:
        _only(request, "POST")
        return act(account_id=account_id, reader_id=reader_id, params=params)

    return view


terminal_reader_process = _reader_action(terminal.reader_process_payment_intent)
terminal_reader_cancel = _reader_action(terminal.reader_cancel_action)
terminal_reader_present = _reader_action(terminal.reader_present_payment_method)


@csrf_exempt
def confirm(request: HttpRequest, intent_id: str) -> HttpResponse:
    """POST {client_secret, card_number}: the kiosk's demo card form (docs/kiosk-and-agent.md)."""
    if request.method != "POST":
        return _method_not_allowed("POST")
    try:
        try:
            body = parsers.loads(request.body.decode("utf-8"))
        except (parsers.BodyRejected, ValueError):
            raise DemoError(400, "invalid_request_error", "Send a JSON object: {client_secret, card_number}.") from None
        if not isinstance(body, dict):
            raise DemoError(400, "invalid_request_error", "Send a JSON object: {client_secret, card_number}.")
        status, answer = services.confirm(
            intent_id=intent_id, client_secret=body.get("client_secret"), card_number=body.get("card_number")
        )
    except DemoError as exc:
        return exc.response()
    return JsonResponse(answer, status=status)


def onboarding(request: HttpRequest, account_id: str) -> HttpResponse:
    """GET: the demo onboarding page; POST: finish it (charges enabled) and go back to the panel."""
    account = DemoAccount.objects.filter(account_id=account_id).first()
    if account is None:
        return missing("account", account_id).response()
    if request.method == "POST":
        services.onboarding_finish(account.account_id)
        return redirect(account.return_url or "/panel/billing")
    return render(request, "demo_processor/onboarding.html", {"account": account})


# The reader page's buttons (terminal.PAGE_CARDS), in the order shown.
PAGE_CARD_NAMES = (
    ("approved", _("Approved")),
    ("declined", _("Declined")),
    ("insufficient_funds", _("Insufficient funds")),
    ("removed_too_early", _("Removed too early")),
)


@require_safe
def reader_page(request: HttpRequest, reader_id: str) -> HttpResponse:
    """The simulated reader's screen: the amount while it holds a payment, then approved or
    declined, and a button per demo card (static/demo_processor/reader.js keeps it current)."""
    state = terminal.page_state(reader_id)
    if state is None:
        return missing("terminal.reader", reader_id).response()
    return render(
        request,
        "demo_processor/reader.html",
        {
            "reader": state,
            "cards": PAGE_CARD_NAMES,
            "state_url": reverse("demo_processor:reader_state", args=[reader_id]),
            "present_url": reverse("demo_processor:reader_present", args=[reader_id]),
        },
    )


@require_safe
def reader_state(request: HttpRequest, reader_id: str) -> HttpResponse:
    """GET: the reader and its last payment action (the page polls this)."""
    state = terminal.page_state(reader_id)
    if state is None:
        return missing("terminal.reader", reader_id).response()
    return JsonResponse(state, headers={"Cache-Control": "no-store"})


@require_POST
def reader_present(request: HttpRequest, reader_id: str) -> HttpResponse:
    """POST card=approved|declined|insufficient_funds|removed_too_early: the card on the reader
    (the test helper's path). Answers the reader as JSON to a script; a form goes back to the page."""
    wants_json = "application/json" in request.headers.get("Accept", "")
    try:
        reader = terminal.page_present(reader_id, request.POST.get("card", ""))
    except DemoError as exc:
        if wants_json:
            return exc.response()
        return redirect("demo_processor:reader_page", reader_id=reader_id)
    if wants_json:
        return JsonResponse(reader)
    return redirect("demo_processor:reader_page", reader_id=reader_id)
