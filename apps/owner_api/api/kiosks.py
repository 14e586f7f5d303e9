"""Owner API kiosks: pairing codes, the list of paired kiosks, rename, unpair, and each kiosk's
card reader: register or replace, remove (kiosks:write)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.accounts.models import Business
from apps.api.fields import StrictCharField
from apps.api.operations import Answer, Data
from apps.billing import terminal
from apps.billing.models import CardReader
from apps.billing.services import readers as reader_services
from apps.core.body_fields import OptionalTextField
from apps.kiosks import selectors as kiosk_selectors
from apps.kiosks import services as kiosk_services
from apps.kiosks.models import Kiosk
from apps.owner_api import selectors
from apps.owner_api.api.base import OwnerApiRequest, OwnerAPIView, enveloped, owner_operation
from apps.owner_api.scopes import Scope


class BusinessRefOut(serializers.Serializer[Business]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ReaderActionOut(serializers.Serializer[CardReader]):
    type = serializers.CharField(source="action_type", help_text="e.g. process_payment_intent")
    status = serializers.CharField(source="action_status", help_text="in_progress, succeeded, failed or canceled")
    failure_code = serializers.CharField(allow_null=True, help_text="The processor's code when it failed.")
    failure_message = serializers.CharField(allow_null=True, help_text="The processor's words when it failed.")

    def to_representation(self, instance: CardReader) -> dict[str, object]:
        body = dict(super().to_representation(instance))
        body["failure_code"] = body["failure_code"] or None
        body["failure_message"] = body["failure_message"] or None
        return body


class ReaderOut(serializers.Serializer[CardReader]):
    id = serializers.CharField(source="reader_id", help_text="The processor's reader id.")
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label (the API's word)
    device_type = serializers.CharField()
    status = serializers.ChoiceField(choices=terminal.READER_STATUSES, help_text="As the processor last reported it.")
    reported_at = serializers.DateTimeField(allow_null=True)
    last_action = serializers.SerializerMethodField()

    @extend_schema_field(ReaderActionOut(allow_null=True))
    def get_last_action(self, reader: CardReader) -> dict[str, object] | None:
        return ReaderActionOut(reader).data if reader.action_type else None


class KioskOut(serializers.Serializer[Kiosk]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    location = OptionalTextField()
    business = BusinessRefOut()
    online = serializers.BooleanField()
    last_seen_at = serializers.DateTimeField(allow_null=True)
    paired_at = serializers.DateTimeField(allow_null=True)
    paired = serializers.BooleanField(source="is_paired")
    reader = serializers.SerializerMethodField()

    @extend_schema_field(ReaderOut(allow_null=True))
    def get_reader(self, kiosk: Kiosk) -> dict[str, object] | None:
        reader = CardReader.objects.filter(kiosk=kiosk).first()
        return None if reader is None else dict(ReaderOut(reader).data)


class PairingCodeIn(serializers.Serializer[None]):
    business_id = serializers.IntegerField(
        min_value=1, required=False, help_text="Required when the owner has more than one business."
    )


class PairingCodeOut(serializers.Serializer[dict[str, object]]):
    code = serializers.CharField(help_text="6 digits, shown only in this response.")
    expires_at = serializers.DateTimeField()
    business = BusinessRefOut()


class KioskRenameIn(serializers.Serializer[None]):
    name = StrictCharField(max_length=200, required=False)
    location = StrictCharField(max_length=200, required=False, allow_blank=True)


class PairingCodeCreateView(OwnerAPIView):
    @owner_operation(Scope.KIOSKS_WRITE, Answer(PairingCodeOut(), 201), body=PairingCodeIn)
    def post(self, request: OwnerApiRequest, data: Data) -> dict[str, object]:
        """A new 6-digit pairing code (valid 15 minutes, used once) for a business"""
        business = selectors.business_for_pairing(owner_id=request.user.owner_id, business_id=data.get("business_id"))
        pairing_code, code = kiosk_services.pairing_code_create(business=business)
        return {"code": code, "expires_at": pairing_code.expires_at, "business": business}


class KioskListView(OwnerAPIView):
    @owner_operation(Scope.KIOSKS_WRITE, enveloped("OwnerKioskList", KioskOut(many=True)))
    def get(self, request: OwnerApiRequest) -> list[Kiosk]:
        """The owner's paired kiosks with their presence"""
        return kiosk_selectors.seen_as_heard(selectors.paired_kiosks(owner_id=request.user.owner_id))


def _paired(request: OwnerApiRequest, kiosk_id: int) -> Kiosk:
    return selectors.paired_kiosk(owner_id=request.user.owner_id, kiosk_id=kiosk_id)


def _as_heard(kiosk: Kiosk) -> Kiosk:
    """The kiosk with its presence as last heard (KioskOut's `online` and `last_seen_at`)."""
    return kiosk_selectors.seen_as_heard([kiosk])[0]


class KioskDetailView(OwnerAPIView):
    @owner_operation(Scope.KIOSKS_WRITE, enveloped("OwnerKiosk", KioskOut()), body=KioskRenameIn)
    def patch(self, request: OwnerApiRequest, data: Data, kiosk_id: int) -> Kiosk:
        """Rename a kiosk or change its location"""
        kiosk = _paired(request, kiosk_id)
        kiosk = kiosk_services.kiosk_rename(
            kiosk=kiosk, name=data.get("name", kiosk.name), location=data.get("location", kiosk.location)
        )
        return _as_heard(kiosk)


class KioskUnpairView(OwnerAPIView):
    @owner_operation(Scope.KIOSKS_WRITE, enveloped("OwnerKioskUnpaired", KioskOut()))
    def post(self, request: OwnerApiRequest, kiosk_id: int) -> Kiosk:
        """Unpair a kiosk: its device token stops working at once"""
        kiosk = _paired(request, kiosk_id)
        kiosk_services.kiosk_unpair(kiosk=kiosk)
        kiosk.refresh_from_db()
        return _as_heard(kiosk)


class ReaderIn(serializers.Serializer[None]):
    registration_code = StrictCharField(max_length=100, help_text="Shown on the reader (simulated-wpe in test mode).")
    label = StrictCharField(  # type: ignore[assignment]  # a field named like Field.label (the API's word)
        max_length=100, required=False, help_text="Defaults to the kiosk's name."
    )


class KioskReaderView(OwnerAPIView):
    @owner_operation(Scope.KIOSKS_WRITE, enveloped("OwnerKioskWithReader", KioskOut()), body=ReaderIn)
    def put(self, request: OwnerApiRequest, data: Data, kiosk_id: int) -> Kiosk:
        """Register the kiosk's card reader, or replace it

        The reader is registered on the owner's connected account at the business's location
        (created on first use); a reader the kiosk had is unregistered. While a kiosk has a reader,
        sending its session to payment hands the payment to the reader. 400 VALIDATION_ERROR on
        `registration_code` when the processor does not accept the code; 409
        PROCESSOR_ACCOUNT_NOT_READY before onboarding."""
        kiosk = _paired(request, kiosk_id)
        reader_services.reader_register(
            kiosk=kiosk, registration_code=data["registration_code"], label=data.get("label") or kiosk.name[:100]
        )
        return _as_heard(kiosk)

    @owner_operation(Scope.KIOSKS_WRITE, enveloped("OwnerKioskReaderRemoved", KioskOut()))
    def delete(self, request: OwnerApiRequest, kiosk_id: int) -> Kiosk:
        """Remove the kiosk's card reader (the kiosk takes cards on screen again)"""
        kiosk = _paired(request, kiosk_id)
        reader_services.reader_remove(kiosk=kiosk)
        return _as_heard(kiosk)
