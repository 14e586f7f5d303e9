"""Owner API business: read a business and change its receipt address (business:write)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from apps.accounts import services as account_services
from apps.accounts.models import ADDRESS_MAX_LENGTH, Business
from apps.api.fields import StrictCharField
from apps.api.inputs import validated
from apps.owner_api import selectors
from apps.owner_api.api.base import OwnerApiRequest, OwnerAPIView, data_response, enveloped
from apps.owner_api.scopes import Scope


class BusinessOut(serializers.Serializer[Business]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    address = serializers.CharField(help_text="Printed on receipts; lines separated by \\n; empty when not set.")


class BusinessIn(serializers.Serializer[None]):
    address = StrictCharField(
        max_length=ADDRESS_MAX_LENGTH,
        allow_blank=True,
        help_text=f"At most {ADDRESS_MAX_LENGTH} characters on at most 6 lines; empty removes it.",
    )


BusinessBody = enveloped("OwnerBusiness", BusinessOut())


def _body(business: Business) -> Response:
    return data_response(BusinessOut(business).data)


class BusinessDetailView(OwnerAPIView):
    required_scopes = {"GET": Scope.BUSINESS_WRITE, "PATCH": Scope.BUSINESS_WRITE}

    @extend_schema(responses={200: BusinessBody}, summary="A business of the owner, with its receipt address")
    def get(self, request: OwnerApiRequest, business_id: int) -> Response:
        return _body(selectors.owned_business(owner_id=request.user.owner_id, business_id=business_id))

    @extend_schema(
        request=BusinessIn,
        responses={200: BusinessBody},
        summary="Set the business's address, printed on its receipts",
        description="Lines are trimmed and blank ones dropped. 422 VALIDATION_ERROR for more than "
        f"{ADDRESS_MAX_LENGTH} characters or 6 lines; another owner's business is 404 NOT_FOUND.",
    )
    def patch(self, request: OwnerApiRequest, business_id: int) -> Response:
        data = validated(BusinessIn, request.data)
        business = selectors.owned_business(owner_id=request.user.owner_id, business_id=business_id)
        business = account_services.business_update(business=business, address=data["address"])
        return _body(business)
