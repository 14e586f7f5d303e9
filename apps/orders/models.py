"""The order of a session: the cart the agent builds, then the paid and fulfilled order."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class OrderStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")  # being built by the agent
    AWAITING_PAYMENT = "awaiting_payment", _("Awaiting Payment")
    PAID = "paid", _("Paid")
    FAILED = "failed", _("Failed")  # card declined; the customer may try again
    CONFIRMED = "confirmed", _("Confirmed")  # fired to the kitchen
    PREPARING = "preparing", _("Preparing")
    READY = "ready", _("Ready")
    COMPLETED = "completed", _("Completed")
    REFUNDED = "refunded", _("Refunded")


# The one rule of "paid" (docs/decisions/orders.md "What paid means"): the processor captured the payment
# and it stands. The browser apps never keep their own copy: order bodies carry `paid` (bodies.py).
PAID_STATUSES = (
    OrderStatus.PAID,
    OrderStatus.CONFIRMED,
    OrderStatus.PREPARING,
    OrderStatus.READY,
    OrderStatus.COMPLETED,
)

# The statuses of an order that took the customer's money, even if it was given back since: its
# receipt exists from the payment on, and reports count it as a sale (refunds are counted apart).
CHARGED_STATUSES = (*PAID_STATUSES, OrderStatus.REFUNDED)


def is_paid(status: str | None) -> bool:
    return status in PAID_STATUSES


class Dining(models.TextChoices):
    """Where the customer eats, asked before paying (blank: not asked, the owner turned it off)."""

    EAT_IN = "eat_in", _("Eat In")
    TAKE_AWAY = "take_away", _("Take Away")


class Order(models.Model):
    session = models.OneToOneField("agent_sessions.Session", on_delete=models.CASCADE, related_name="order")
    owner = models.ForeignKey("accounts.Owner", on_delete=models.CASCADE, related_name="orders")
    business = models.ForeignKey("accounts.Business", on_delete=models.CASCADE, related_name="orders")
    number = models.CharField(max_length=12)
    status = models.CharField(max_length=20, choices=OrderStatus.choices, default=OrderStatus.DRAFT)
    currency = models.CharField(max_length=3)
    subtotal_cents = models.PositiveIntegerField(default=0)
    tax_cents = models.PositiveIntegerField(default=0)
    total_cents = models.PositiveIntegerField(default=0)
    dining = models.CharField(max_length=10, choices=Dining.choices, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    paid_at = models.DateTimeField(null=True, blank=True, help_text="When the payment was captured.")
    # The receipt page's unguessable address (/r/<token>, no sign-in), issued with the payment:
    # only its SHA-256 is stored (apps/orders/receipts.py says how the address is given again).
    receipt_token_hash = models.CharField(
        max_length=64, unique=True, null=True, blank=True, editable=False, help_text="SHA-256 of the receipt's token."
    )
    # Kept only when the business's order settings say so (default off): where the receipt was last mailed.
    receipt_email = models.EmailField(blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["business", "number"], name="order_number_unique_per_business")]
        indexes = [models.Index(fields=["owner", "status", "created_at"])]

    def __str__(self) -> str:
        return f"Order {self.number} ({self.business_id})"


class OrderLine(models.Model):
    """A snapshot of what was sold: names and prices are copied, so later menu edits do not
    rewrite past orders."""

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="lines")
    position = models.PositiveSmallIntegerField()
    menu_item = models.ForeignKey("menu.MenuItem", null=True, on_delete=models.SET_NULL, related_name="+")
    name = models.CharField(max_length=200)
    quantity = models.PositiveSmallIntegerField()
    unit_price_cents = models.PositiveIntegerField()
    modifiers = models.JSONField(default=list, help_text="[{group, value, option_id}]")
    notes = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.quantity} x {self.name}"


class OrderSettings(models.Model):
    """A business's ordering settings the owner sets; a business without a row has the defaults."""

    business = models.OneToOneField("accounts.Business", on_delete=models.CASCADE, related_name="order_settings")
    ask_dining = models.BooleanField(default=True, help_text="The kiosk asks eat in or take away before paying.")
    keep_receipt_email = models.BooleanField(
        default=False,
        help_text="Keep the address a receipt was mailed to, so a refund mails the updated receipt.",
    )
    card_fields_fallback = models.BooleanField(
        default=False,
        help_text="When a kiosk's card reader is offline or busy, the customer may pay with the kiosk's card "
        "fields instead.",
    )

    class Meta:
        verbose_name_plural = "order settings"

    def __str__(self) -> str:
        return f"Order settings of {self.business_id}"
