"""Owner API business: read a business and change its receipt address (business:write)."""

from rest_framework import serializers

from apps.accounts import services as account_services
from apps.accounts.models import ADDRESS_MAX_LENGTH, Business
from apps.api.fields import StrictCharField
from apps.api.operations import Data
from apps.owner_api import selectors
from apps.owner_api.api.base import OwnerApiRequest, OwnerAPIView, enveloped, owner_operation
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


BUSINESS = enveloped("OwnerBusiness", BusinessOut())


class BusinessDetailView(OwnerAPIView):
    @owner_operation(Scope.BUSINESS_WRITE, BUSINESS)
    def get(self, request: OwnerApiRequest, business_id: int) -> Business:
        """A business of the owner, with its receipt address"""
        return selectors.owned_business(owner_id=request.user.owner_id, business_id=business_id)

    @owner_operation(
        Scope.BUSINESS_WRITE,
        BUSINESS,
        body=BusinessIn,
        description="Lines are trimmed and blank ones dropped. 422 VALIDATION_ERROR for more than "
        f"{ADDRESS_MAX_LENGTH} characters or 6 lines; another owner's business is 404 NOT_FOUND.",
    )
    def patch(self, request: OwnerApiRequest, data: Data, business_id: int) -> Business:
        """Set the business's address, printed on its receipts"""
        business = selectors.owned_business(owner_id=request.user.owner_id, business_id=business_id)
        return account_services.business_update(business=business, address=data["address"])
