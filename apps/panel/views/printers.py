"""Printers (owners and managers): the business's network ticket printers with their state, the
tickets waiting for them and their last ticket; add, change, remove, print a test page. The
printing services do the work (apps/printing/services.py)."""

import secrets
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from apps.core.errors import DomainError
from apps.kiosks import selectors as kiosk_selectors
from apps.kiosks.models import Kiosk
from apps.menu.models import Category
from apps.panel.access import ANY_ROLE, PanelRequest, panel_page
from apps.panel.forms import BusinessChoiceForm
from apps.panel.pages import businesses_of, error_text, object_action, render_page
from apps.printing import selectors, services
from apps.printing.models import PaperWidth, Printer, PrinterRole, PrintJob


class _CategoryChoice(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]  # django-stubs' generic
    def label_from_instance(self, obj: Category) -> str:
        return f"{obj.catalog.business.name} · {obj.catalog.name} · {obj.name}"


class PrinterForm(BusinessChoiceForm):
    name = forms.CharField(
        max_length=100, label=gettext_lazy("Name"), help_text=gettext_lazy("Where it prints, e.g. “Grill” or “Bar”.")
    )
    host = forms.CharField(
        max_length=255, label=gettext_lazy("Address"), help_text=gettext_lazy("The printer's IP address or host name.")
    )
    port = forms.IntegerField(min_value=1, max_value=65535, initial=9100, label=gettext_lazy("Port"))
    paper_width = forms.TypedChoiceField(
        choices=PaperWidth.choices, coerce=int, initial=PaperWidth.MM80, label=gettext_lazy("Paper width")
    )
    role = forms.ChoiceField(choices=PrinterRole.choices, initial=PrinterRole.KITCHEN, label=gettext_lazy("Prints"))
    categories = _CategoryChoice(
        queryset=Category.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Kitchen: the categories it prints"),
        help_text=gettext_lazy("None chosen: every line."),
    )
    kiosk: forms.ModelChoiceField[Kiosk] = forms.ModelChoiceField(
        queryset=Kiosk.objects.none(), required=False, label=gettext_lazy("Receipts: the kiosk it prints for")
    )
    reads_status = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("It answers status queries"),
        help_text=gettext_lazy("Off for a listener that takes tickets but never says whether it is out of paper."),
    )

    def __init__(self, data: Any = None, *, request: PanelRequest, initial: dict[str, Any] | None = None) -> None:
        super().__init__(data, businesses=businesses_of(request))
        if initial:
            self.initial = initial
        owner_id = request.user.owner_id
        categories = self.fields["categories"]
        assert isinstance(categories, forms.ModelMultipleChoiceField)
        categories.queryset = selectors.printer_categories_of_owner(owner_id)
        kiosk = self.fields["kiosk"]
        assert isinstance(kiosk, forms.ModelChoiceField)
        kiosk.queryset = kiosk_selectors.kiosks_of_owner(owner_id)

    def printer_fields(self) -> dict[str, Any]:
        data = self.cleaned_data
        kiosk = data.get("kiosk")
        return {
            "name": data["name"],
            "host": data["host"].strip(),
            "port": data["port"],
            "paper_width": data["paper_width"],
            "role": data["role"],
            "category_ids": [category.pk for category in data["categories"]],
            "kiosk_id": kiosk.pk if kiosk is not None else None,
            "reads_status": data["reads_status"],
        }


def _printer(request: PanelRequest, printer_id: int) -> Printer:
    try:
        return selectors.printer_of_owner(owner_id=request.user.owner_id, printer_id=printer_id)
    except DomainError:
        raise Http404("No such printer in your account.") from None


@panel_page()
def printer_list(request: PanelRequest) -> HttpResponseBase:
    form = PrinterForm(request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        try:
            printer = services.printer_create(business=form.cleaned_data["business"], fields=form.printer_fields())
        except DomainError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("Printer “{name}” added.").format(name=printer.name))
            return redirect("panel:printers")
    context = {
        "printers": selectors.printers_of_owner(request.user.owner_id).order_by("business__name", "name"),
        "form": form,
        "print_settings": [
            (business, selectors.prints_receipts_always(business.pk)) for business in businesses_of(request)
        ],
    }
    return render_page(request, "panel/printers.html", context, section="printers")


@panel_page()
def printer_edit(request: PanelRequest, printer_id: int) -> HttpResponseBase:
    printer = _printer(request, printer_id)
    initial = {
        "business": printer.business_id,
        "name": printer.name,
        "host": printer.host,
        "port": printer.port,
        "paper_width": printer.paper_width,
        "role": printer.role,
        "categories": [category.pk for category in printer.categories.all()],
        "kiosk": printer.kiosk_id,
        "reads_status": printer.reads_status,
    }
    form = PrinterForm(request.POST or None, request=request, initial=initial)
    if request.method == "POST" and form.is_valid():
        if form.cleaned_data["business"].pk != printer.business_id:
            form.add_error("business", _("A printer stays with its business: remove it and add it to the other."))
        else:
            try:
                services.printer_update(printer=printer, fields=form.printer_fields())
            except DomainError as exc:
                form.add_error(None, error_text(exc))
            else:
                messages.success(request, _("Printer “{name}” saved.").format(name=form.cleaned_data["name"]))
                return redirect("panel:printers")
    return render_page(request, "panel/printer_edit.html", {"printer": printer, "form": form}, section="printers")


@panel_page()
@require_POST
def printer_test_page(request: PanelRequest, printer_id: int) -> HttpResponseRedirect:
    printer = _printer(request, printer_id)
    services.print_test_page(printer, request_key=secrets.token_hex(8))
    messages.success(
        request, _("A test page is on its way to “{name}”: it prints when the printer can.").format(name=printer.name)
    )
    return redirect("panel:printers")


@panel_page()
@require_POST
def printer_delete(request: PanelRequest, printer_id: int) -> HttpResponseRedirect:
    printer = _printer(request, printer_id)
    services.printer_delete(printer=printer)
    messages.success(request, _("Printer “{name}” removed.").format(name=printer.name))
    return redirect("panel:printers")


def _ticket(request: PanelRequest, job_id: int) -> PrintJob:
    job = selectors.job_of_owner(owner_id=request.user.owner_id, job_id=job_id)
    if job is None:
        raise Http404("No such ticket in your account.")
    return job


def _back_to_its_order(job: PrintJob) -> HttpResponseRedirect:
    if job.order_id is None:
        return redirect("panel:printers")
    return redirect("panel:order", order_id=job.order_id)


@object_action(_ticket, _back_to_its_order, access=ANY_ROLE, id_name="job_id")
def ticket_reprint(job: PrintJob) -> str:
    again = services.reprint(job)
    return _("The ticket is printed again on “{printer}”, marked REPRINT.").format(printer=again.printer.name)


@panel_page()
@require_POST
def print_settings(request: PanelRequest) -> HttpResponseRedirect:
    """Whether a business's receipts print without the customer asking (off by default)."""
    chosen = request.POST.get("business", "")
    business = businesses_of(request).filter(pk=int(chosen)).first() if chosen.isdigit() else None
    if business is None:
        raise Http404("No such business in your account.")
    always = request.POST.get("print_receipts") == "on"
    services.print_settings_update(business=business, print_receipts=always)
    said = (
        _("Every receipt of {business} now prints on its kiosk's receipt printer without asking.")
        if always
        else _("Receipts of {business} print when the customer asks for one.")
    )
    messages.success(request, said.format(business=business.name))
    return redirect("panel:printers")
