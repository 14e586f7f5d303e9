"""The restaurant's own network ticket printers (ESC/POS over raw TCP) and the tickets sent to them.

A ticket is a PrintJob: its bytes are rendered once when it is created, and its idempotency
`key` is unique, so asking twice for the same ticket (an event handled again, a button pressed
twice) finds the one row. A job is printed by claiming it (waiting -> printing) under the
printer's lease, so however often its task runs, one runner sends it (apps/printing/services.py)."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class PaperWidth(models.IntegerChoices):
    MM58 = 58, _("58 mm")
    MM80 = 80, _("80 mm")


class PrinterRole(models.TextChoices):
    KITCHEN = "kitchen", _("Kitchen")  # kitchen tickets of its categories (all, if none is chosen)
    RECEIPT = "receipt", _("Receipt")  # receipts of one kiosk
    BOTH = "both", _("Both")


PRINTER_ROLES = tuple(PrinterRole.values)  # the API's choices (and its schema's PrinterRoleEnum)
KITCHEN_ROLES = (PrinterRole.KITCHEN, PrinterRole.BOTH)
RECEIPT_ROLES = (PrinterRole.RECEIPT, PrinterRole.BOTH)


class PrinterState(models.TextChoices):
    """What the printer said when last asked (DLE EOT); `unknown` before the first ticket."""

    UNKNOWN = "unknown", _("Unknown")
    ONLINE = "online", _("Online")
    OFFLINE = "offline", _("Offline")  # unreachable, or it says it is off line
    PAPER_OUT = "paper_out", _("Paper Out")
    COVER_OPEN = "cover_open", _("Cover Open")


NOT_PRINTING = (PrinterState.OFFLINE, PrinterState.PAPER_OUT, PrinterState.COVER_OPEN)


class Printer(models.Model):
    business = models.ForeignKey("accounts.Business", on_delete=models.CASCADE, related_name="printers")
    name = models.CharField(max_length=100)
    host = models.CharField(max_length=255, help_text="The printer's IP address or host name.")
    port = models.PositiveIntegerField(default=9100, validators=[MinValueValidator(1), MaxValueValidator(65535)])
    paper_width = models.PositiveSmallIntegerField(choices=PaperWidth.choices, default=PaperWidth.MM80)
    role = models.CharField(max_length=10, choices=PrinterRole.choices, default=PrinterRole.KITCHEN)
    categories = models.ManyToManyField(
        "menu.Category", blank=True, related_name="+", help_text="Kitchen: the categories it prints (none: all)."
    )
    kiosk = models.ForeignKey(
        "kiosks.Kiosk",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Receipt: its kiosk.",
    )
    # Some raw TCP listeners take a ticket but never answer a status query: then being reachable
    # is taken as online, and a ticket as printed once its bytes are sent.
    reads_status = models.BooleanField(default=True)
    state = models.CharField(max_length=12, choices=PrinterState.choices, default=PrinterState.UNKNOWN)
    state_changed_at = models.DateTimeField(null=True, blank=True)
    last_job = models.ForeignKey("PrintJob", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    last_printed_at = models.DateTimeField(null=True, blank=True)
    # Retries while it cannot print: consecutive failed attempts, and when to try again.
    failures = models.PositiveIntegerField(default=0)
    retry_at = models.DateTimeField(null=True, blank=True)
    # The lease of the one runner sending to it now (services.drain): tickets go out one at a
    # time and in order; a runner that died lets go when the lease runs out.
    lease_token = models.CharField(max_length=32, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def owner_id(self) -> int:
        return self.business.owner_id


class JobKind(models.TextChoices):
    KITCHEN = "kitchen", _("Kitchen")
    CANCEL = "cancel", _("Cancel")  # "CANCELLED #42" on a printer that printed the order's ticket
    RECEIPT = "receipt", _("Receipt")
    TEST = "test", _("Test")


class JobStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting")  # to be printed, or waiting for its printer to come back
    PRINTING = "printing", _("Printing")  # claimed by a runner; sent, or being sent
    PRINTED = "printed", _("Printed")  # the printer took it and said it was fine afterwards
    FAILED = "failed", _("Failed")  # given up (the printer was deleted)
    WITHDRAWN = "withdrawn", _("Withdrawn")  # its order was cancelled before it printed


class PrintJob(models.Model):
    printer = models.ForeignKey(Printer, on_delete=models.CASCADE, related_name="jobs")
    order = models.ForeignKey("orders.Order", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=JobKind.choices)
    key = models.CharField(max_length=120, unique=True, help_text="One ticket, one key: asked twice, printed once.")
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.WAITING)
    attempts = models.PositiveIntegerField(default=0)
    reprint = models.BooleanField(default=False, help_text="Asked again: printed under a REPRINT banner.")
    # Claimed, then its runner stopped before recording the outcome: the printer may have printed
    # it. It is sent again under a "REPRINT?" banner: the only duplicate there may be.
    uncertain = models.BooleanField(default=False)
    content = models.BinaryField(help_text="The ESC/POS bytes, rendered when the job was created.")
    text = models.TextField(blank=True, help_text="The ticket's words, for people reading the job.")
    created_at = models.DateTimeField(default=timezone.now)
    claimed_at = models.DateTimeField(null=True, blank=True)
    printed_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["printer", "status", "created_at"])]

    def __str__(self) -> str:
        return self.key


class PrintSettings(models.Model):
    """A business's printing settings the owner sets; a business without a row has the defaults."""

    business = models.OneToOneField("accounts.Business", on_delete=models.CASCADE, related_name="print_settings")
    print_receipts = models.BooleanField(
        default=False,
        help_text="Every paid order's receipt prints on its kiosk's receipt printer without the customer asking.",
    )

    class Meta:
        verbose_name_plural = "print settings"

    def __str__(self) -> str:
        return f"Print settings of {self.business_id}"
