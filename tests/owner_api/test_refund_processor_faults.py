"""Owner API refunds when the processor refuses, breaks or does not answer in time: 502
PROCESSOR_ERROR or 503 PROCESSOR_UNAVAILABLE in the owner API's envelope, every row exactly as it
was, nothing broadcast, and the retry sends the same Idempotency-Key (so a refund the processor
made but whose answer was lost is recorded once, never made twice)."""

import pytest

from apps.billing.models import Refund
from apps.sessions.models import Session
from tests.support.auth import error_of
from tests.support.payments import QUICK_TIMEOUT, SLOW_ANSWER, payment_rows


@pytest.fixture
def faulty(settings, processor, confirmed_order, broadcasts):
    """The stand-in after the order was paid, with a short timeout; broadcasts from now on."""
    settings.PROCESSOR_TIMEOUT = QUICK_TIMEOUT
    settings.PROCESSOR_MAX_NETWORK_RETRIES = 1
    broadcasts.clear()
    return processor


@pytest.mark.parametrize(
    ("fault", "status", "code"),
    [("402", 502, "PROCESSOR_ERROR"), ("500", 503, "PROCESSOR_UNAVAILABLE"), ("slow", 503, "PROCESSOR_UNAVAILABLE")],
)
def test_a_failed_refund_changes_nothing_and_the_retry_reuses_its_key(
    api, confirmed_order, faulty, broadcasts, fault, status, code
):
    session = Session.objects.get(pk=confirmed_order.session_id)
    before = payment_rows(session)
    if fault == "slow":
        faulty.delay_seconds = SLOW_ANSWER
    else:
        faulty.fail(int(fault), times=2 if fault == "500" else 1)  # 5xx is retried once
    url = f"/api/owner/orders/{confirmed_order.pk}/refund"
    error = error_of(api.post(url, {"amount_cents": 500}), status, code)
    assert ("refused" in error["message"]) == (fault == "402")
    assert payment_rows(session) == before and broadcasts == []

    faulty.delay_seconds = 0
    response = api.post(url, {"amount_cents": 500})
    assert response.status_code == 201, response.content
    assert Refund.objects.get().refund_id == response.json()["data"]["id"]
    calls = faulty.calls_to("/v1/refunds")
    assert len(calls) == (2 if fault == "402" else 3)  # the library retries a 5xx or a timeout once
    assert {call.headers["Idempotency-Key"] for call in calls} == {f"refund-{confirmed_order.pk}-1"}
