from django.apps import AppConfig


class BillingConfig(AppConfig):
    name = "apps.billing"
    label = "billing"

    def ready(self) -> None:
        from apps.billing.plans import rate_for_owner
        from apps.billing.services.payments import payment_abandon
        from apps.sessions import ending, pricing

        # What sessions call in billing, in shapes sessions own (sessions import no billing code):
        # ending a session in payment cancels its intent first; its minutes are priced at the
        # owner's plan.
        ending.register_end_in_payment(payment_abandon)
        pricing.register_minute_rate(rate_for_owner)
