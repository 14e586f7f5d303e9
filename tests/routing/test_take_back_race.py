"""Taking a payment back while another tab of the same agent accepts a video customer: the
take-back's check (no other video conversation) runs before the processor cancels the intent,
and its record step makes the paying customer a video conversation again after it. An accept
landing between the two must not make two conversations: the take-back holds the agent's video
seat from its check (Session.payment_taken_back_at, apps/sessions/seats.py), so that accept is
refused with AGENT_IN_CONVERSATION and the router offers the agent no video customer meanwhile."""

from apps.billing.services import payments
from apps.core.errors import DomainError
from apps.routing import accept as routing_accept
from apps.routing import offers
from apps.routing.models import Offer, OfferStatus
from apps.sessions.models import Session, SessionStatus
from apps.sessions.seats import held_by
from tests import factories
from tests.routing.test_capacity import _capacity
from tests.support.payments import billing, cart_session, kiosk_events, menu_item, processor

__all__ = ["billing", "cart_session", "kiosk_events", "menu_item", "processor"]


def test_an_accept_between_the_take_back_check_and_its_record_step_is_refused(
    agent_client, agent, owner, business, cart_session, processor, billing, kiosk_events, monkeypatch
):
    _capacity(owner, 3)
    assert agent_client.post(f"/api/sessions/{cart_session.public_id}/payment").status_code == 200
    other_video = factories.SessionFactory(kiosk=factories.KioskFactory(business=business))
    in_between: dict[str, object] = {}
    cancel_intent = payments._cancel_intent

    def another_tab_accepts_then_the_processor_answers(payment):
        """The processor call runs outside any lock: the agent's other tab accepts meanwhile,
        and the router runs."""
        in_between["held"] = held_by([agent.pk])[agent.pk]
        try:
            routing_accept.session_accept(public_id=other_video.public_id, agent=agent)
            in_between["accept"] = "accepted"
        except DomainError as refused:
            in_between["accept"] = refused.code
        offers.offers_dispatch()
        in_between["offered"] = Offer.objects.filter(agent=agent, session=other_video, status=OfferStatus.LIVE).exists()
        return cancel_intent(payment)

    monkeypatch.setattr(payments, "_cancel_intent", another_tab_accepts_then_the_processor_answers)
    response = agent_client.post(f"/api/sessions/{cart_session.public_id}/payment/cancel")
    assert response.status_code == 200, response.content
    assert in_between["accept"] == "AGENT_IN_CONVERSATION"
    assert in_between["held"].in_conversation  # the take-back holds the video seat
    assert in_between["offered"] is False  # nor is the waiting video customer offered to it
    conversations = Session.objects.filter(agent=agent, status=SessionStatus.ACTIVE, medium="video")
    assert list(conversations.values_list("pk", flat=True)) == [cart_session.pk]
    assert Session.objects.get(pk=other_video.pk).status == SessionStatus.PENDING


def test_a_take_back_that_failed_holds_the_seat_no_longer_than_the_processor_could_take(
    agent, owner, business, settings
):
    """The hold is a time (PAYMENT_TAKE_BACK_HOLD_SECONDS), not a flag to clear: a take-back
    whose processor call failed leaves the session in payment, and the seat frees by itself."""
    from datetime import timedelta

    from django.utils import timezone

    _capacity(owner, 3)
    paying = factories.SessionFactory(
        kiosk=factories.KioskFactory(business=business), status="payment", agent=agent, accepted_at=timezone.now()
    )
    paying.payment_taken_back_at = timezone.now() - timedelta(seconds=settings.PAYMENT_TAKE_BACK_HOLD_SECONDS - 1)
    paying.save(update_fields=["payment_taken_back_at"])
    assert held_by([agent.pk])[agent.pk].in_conversation
    paying.payment_taken_back_at = timezone.now() - timedelta(seconds=settings.PAYMENT_TAKE_BACK_HOLD_SECONDS + 1)
    paying.save(update_fields=["payment_taken_back_at"])
    assert not held_by([agent.pk])[agent.pk].in_conversation
