"""Re-encrypt every webhook signing secret with the first key of WEBHOOK_SECRET_KEYS.

Rotation: list the new key first and keep the old ones after it (both read), deploy, run this,
then drop the old keys. Safe to run again and while deliveries go on: each secret is rewritten
under its row lock, and one already under the first key is left alone.
"""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.core import secret_box
from apps.webhooks.models import WebhookSubscription


class Command(BaseCommand):
    help = "Re-encrypt every webhook signing secret with the first key of WEBHOOK_SECRET_KEYS."

    def handle(self, *args: str, **options: object) -> None:
        rotated = current = 0
        unreadable: list[int] = []
        for pk in WebhookSubscription.objects.order_by("pk").values_list("pk", flat=True).iterator():
            with transaction.atomic():
                subscription = WebhookSubscription.objects.select_for_update().filter(pk=pk).first()
                if subscription is None:
                    continue  # deleted meanwhile
                if secret_box.is_current(subscription.encrypted_secret):
                    current += 1
                    continue
                try:
                    subscription.encrypted_secret = secret_box.reencrypt(subscription.encrypted_secret)
                except secret_box.SecretUnreadable:
                    unreadable.append(pk)
                    continue
                subscription.save(update_fields=["encrypted_secret"])
                rotated += 1
        self.stdout.write(f"{rotated} re-encrypted with the first key, {current} already were.")
        if unreadable:
            raise CommandError(
                f"No listed key opens the secret of subscription(s) {', '.join(map(str, unreadable))}: "
                "add the key they were written with to WEBHOOK_SECRET_KEYS and run this again."
            )
