from django.apps import AppConfig


class BillingConfig(AppConfig):
    name = "apps.billing"
    label = "billing"

    def ready(self) -> None:
        from apps.billing.plans import rate_for_owner
        from apps.billing.selectors import payment_brief_of_session, reader_refusal_of_session
        from apps.billing.services.payments import payment_abandon
        from apps.sessions import bodies, ending, pricing

        # What sessions call in billing, in shapes sessions own (sessions import no billing code):
        # ending a session in payment cancels its intent first; its minutes are priced at the
        # owner's plan.
        ending.register_end_in_payment(payment_abandon)
        pricing.register_minute_rate(rate_for_owner)
        # The kiosk's status body says how a session in payment takes the card (reader or fields).
        bodies.register_payment_brief(payment_brief_of_session)
        # ... and, while active, that the reader refused the agent's send to payment.
        bodies.register_reader_refusal(reader_refusal_of_session)
