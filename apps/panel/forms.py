"""Panel forms: input shape only. The rules live in the services the views call."""

import zoneinfo
from decimal import Decimal

from django import forms
from django.db.models import QuerySet
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from apps.accounts.models import Business
from apps.core.events import EVENT_NAMES
from apps.orders.fulfilment import FULFILMENT_STATUSES
from apps.orders.models import OrderStatus
from apps.owner_api.scopes import SCOPE_LABELS
from apps.panel.labels import CHOICES, END_REASONS
from apps.routing.routing_settings import LIMITS as ROUTING_LIMITS
from apps.sessions.models import EndReason


def detail_problems(details: object) -> list[tuple[str, str]]:
    """A DomainError's `details` ({field: message or [messages]}) as (field, message) pairs."""
    if not isinstance(details, dict):
        return []
    return [
        (str(field), str(problem))
        for field, problems in details.items()
        for problem in (problems if isinstance(problems, list | tuple) else [problems])
    ]


class LoginForm(forms.Form):
    email = forms.EmailField(
        label=_("Email"), max_length=254, widget=forms.EmailInput(attrs={"autofocus": True, "autocomplete": "email"})
    )
    password = forms.CharField(
        label=_("Password"), max_length=256, strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "off"})
    )


class TotpCodeForm(forms.Form):
    code = forms.RegexField(
        regex=r"^\d{6}$",
        label=_("Authentication code"),
        error_messages={"invalid": _("Enter the 6-digit code from your authenticator app.")},
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}),
    )


class BusinessChoiceForm(forms.Form):
    """One of the signed-in owner's businesses (forms that also need one extend it)."""

    business: forms.ModelChoiceField[Business] = forms.ModelChoiceField(
        queryset=Business.objects.none(), empty_label=None, label=_("Business")
    )

    def __init__(self, data: QueryDict | None = None, *, businesses: QuerySet[Business]) -> None:
        super().__init__(data)
        field = self.fields["business"]
        assert isinstance(field, forms.ModelChoiceField)  # declared above; `fields` holds a copy
        field.queryset = businesses


class KioskRenameForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    location = forms.CharField(label=_("Location"), max_length=200, required=False)


class KioskMountForm(forms.Form):
    mount_height_mm = forms.IntegerField(
        label=_("Bottom edge of the screen above the floor (mm)"), min_value=0, max_value=2500
    )
    screen_height_mm = forms.IntegerField(label=_("Visible height of the screen (mm)"), min_value=50, max_value=2500)


class KioskReaderForm(forms.Form):
    registration_code = forms.CharField(
        label=_("Registration code"),
        max_length=100,
        help_text=_("The code the reader shows (demo processor: simulated-wpe or simulated-s700)."),
    )
    label = forms.CharField(label=_("Label"), max_length=100, required=False)


class NoFieldsForm(forms.Form):
    """A POST that sends nothing but its CSRF token."""


LANGUAGES_HELP = _("Language codes the agent serves, e.g. en, es. Empty: offered customers of every language.")


class AgentCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    email = forms.EmailField(label=_("Email"), max_length=254)
    password = forms.CharField(
        label=_("Password"),
        min_length=10,
        max_length=256,
        strip=False,
        widget=forms.PasswordInput,
        help_text=_("At least 10 characters."),
    )
    languages = forms.CharField(label=_("Languages"), max_length=200, required=False, help_text=LANGUAGES_HELP)


class AgentLanguagesForm(forms.Form):
    languages = forms.CharField(label=_("Languages"), max_length=200, required=False, help_text=LANGUAGES_HELP)


class AgentCapacityForm(forms.Form):
    capacity = forms.IntegerField(
        label=_("Customers at once"),
        required=False,
        min_value=ROUTING_LIMITS["agent_capacity"][0],
        max_value=ROUTING_LIMITS["agent_capacity"][1],
    )


class WebhookCreateForm(forms.Form):
    url = forms.URLField(max_length=2000, label=_("Receiver URL"), assume_scheme="https")
    events = forms.MultipleChoiceField(
        choices=[(name, name) for name in EVENT_NAMES], widget=forms.CheckboxSelectMultiple, label=_("Events")
    )


class ServiceErrorsOnFields(forms.Form):
    """A form whose service owns its rules: a refusal's details land on the fields they name
    (pages.form_posted)."""

    def add_service_error(self, details: object) -> bool:
        """Put a DomainError's `details` ({field: [messages]}) on the fields; False if none fit."""
        problems = detail_problems(details)
        for field, problem in problems:
            self.add_error(field if field in self.fields else None, problem)
        return bool(problems)


class ApiKeyCreateForm(ServiceErrorsOnFields):
    """Name and scopes of a new owner API key. Both are optional here on purpose: the key service
    owns the rules (a name, at least one scope) and its errors land on these fields."""

    name = forms.CharField(required=False, label=_("Name"), widget=forms.TextInput(attrs={"maxlength": 200}))
    scopes = forms.MultipleChoiceField(
        choices=list(SCOPE_LABELS.items()), required=False, widget=forms.CheckboxSelectMultiple, label=_("Scopes")
    )


class OrderFilterForm(forms.Form):
    # Drafts are carts an agent saved but never sent to payment: in a live session, or abandoned
    # when the session ended. The default list leaves them out and says how many there are.
    ALL = "all"
    ABANDONED = "abandoned"
    status = forms.ChoiceField(
        label=_("Status"),
        choices=[
            ("", _("Sent to payment or later")),
            (ALL, _("Any, drafts too")),
            (ABANDONED, _("Abandoned carts")),
            *((code, CHOICES["order_status"].get(code, label)) for code, label in OrderStatus.choices),
        ],
        required=False,
    )
    number = forms.CharField(max_length=12, required=False, label=_("Order number"))
    date_from = forms.DateField(required=False, label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(required=False, label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))


class SessionFilterForm(forms.Form):
    end_reason = forms.ChoiceField(
        choices=[("", _("Any end")), *((code, END_REASONS.get(code, label)) for code, label in EndReason.choices)],
        required=False,
        label=_("End reason"),
    )
    date_from = forms.DateField(required=False, label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(required=False, label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))


class FulfilmentForm(forms.Form):
    status = forms.ChoiceField(choices=[(status, status) for status in FULFILMENT_STATUSES])


class RefundForm(forms.Form):
    amount = forms.DecimalField(
        label=_("Amount"),
        min_value=0.01,
        decimal_places=2,
        max_digits=12,
        required=False,
        help_text=_("Leave empty to refund the rest."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=200, required=False)
    confirm = forms.BooleanField(label=_("I confirm this refund goes back to the customer's card."))

    def amount_cents(self) -> int | None:
        amount = self.cleaned_data.get("amount")
        return None if amount is None else int(amount * 100)


class BusinessSettingsForm(forms.ModelForm[Business]):
    """A business's settings. The tax rate is typed as a percentage (8.75) and kept in basis
    points (875), the unit order totals compute in."""

    logo_url = forms.URLField(max_length=200, required=False, label=_("Logo URL"), assume_scheme="https")
    tax_rate = forms.DecimalField(
        min_value=Decimal("0"),
        max_value=Decimal("100"),
        decimal_places=2,
        max_digits=5,
        label=_("Tax rate (%)"),
        help_text=_("Added to the prices, e.g. 8.75 for 8.75 %."),
        widget=forms.NumberInput(attrs={"step": "0.01", "min": "0", "max": "100"}),
    )
    field_order = ["name", "logo_url", "currency", "tax_rate"]

    class Meta:
        model = Business
        fields = [
            "name",
            "logo_url",
            "currency",
            "primary_color",
            "attract_message",
            "session_recording",
            "timezone",
            "address",
        ]
        labels = {
            "logo_url": _("Logo URL"),
            "primary_color": _("Kiosk colour"),
            "session_recording": _("Record sessions (kept 30 days)"),
            "timezone": _("Time zone (reports count its days and hours)"),
            "address": _("Address (printed on receipts)"),
        }
        widgets = {
            "primary_color": forms.TextInput(attrs={"type": "color"}),
            "timezone": forms.Select(choices=[(name, name) for name in sorted(zoneinfo.available_timezones())]),
            "address": forms.Textarea(attrs={"rows": 3, "autocomplete": "street-address"}),
        }

    def __init__(self, data: QueryDict | None = None, *, instance: Business | None = None) -> None:
        super().__init__(data, instance=instance)
        if instance is not None:
            self.initial["tax_rate"] = (Decimal(instance.tax_rate_bps) / 100).quantize(Decimal("0.01"))
        # A form posted without the time zone (older pages, scripts) keeps the current one.
        self.fields["timezone"].required = False

    def clean_timezone(self) -> str:
        return self.cleaned_data.get("timezone") or (self.instance.timezone if self.instance else "UTC")

    def changes(self) -> dict[str, object]:
        """The model fields the owner changed, the tax rate in basis points."""
        changed = {name: self.cleaned_data[name] for name in self.changed_data if name != "tax_rate"}
        if "tax_rate" in self.changed_data:
            changed["tax_rate_bps"] = int((self.cleaned_data["tax_rate"] * 100).to_integral_value())
        return changed


def _routing_field(name: str, label: StrOrPromise, help_text: StrOrPromise) -> forms.IntegerField:
    low, high = ROUTING_LIMITS[name]
    return forms.IntegerField(min_value=low, max_value=high, label=label, help_text=help_text)


class RoutingSettingsForm(forms.Form):
    """How customers reach the owner's agents (apps/routing/router.py); defaults from ROUTING_*."""

    offer_size = _routing_field("offer_size", _("Agents offered at a time"), _("How many agents ring at once."))
    offer_seconds = _routing_field(
        "offer_seconds", _("Offer lasts (seconds)"), _("Unanswered after this, it is a miss.")
    )
    any_language_after_seconds = _routing_field(
        "any_language_after_seconds", _("Any language after (seconds)"), _("Then agents of every language are offered.")
    )
    misses_before_break = _routing_field(
        "misses_before_break", _("Missed offers before a break"), _("In a row; the agent is set on break and told why.")
    )
    self_service_after_seconds = _routing_field(
        "self_service_after_seconds",
        _("Offer self-service after (seconds)"),
        _("When the wait or its estimate passes this, the kiosk offers to order alone."),
    )
    agent_capacity = forms.IntegerField(
        required=False,
        min_value=ROUTING_LIMITS["agent_capacity"][0],
        max_value=ROUTING_LIMITS["agent_capacity"][1],
        label=_("Customers per agent"),
        help_text=_(
            "How many customers an agent serves at once: one on video, the others paying or writing. "
            "An agent's own number on the Agents page comes first. Empty: the default."
        ),
    )
    agents_start_on_break = forms.BooleanField(
        required=False,
        label=_("Agents start on break"),
        help_text=_(
            'Signing in sets an agent on break instead of available; they press "I\'m back" to take customers.'
        ),
    )
