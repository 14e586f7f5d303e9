"""Bases of the super-admin's pages for rows the services write. Such a row is never added by
hand (it is made by its flow: pairing, signing in, a payment, the router); a record the system
keeps (a log, an audit trail, a processor's copy) is not changed by hand either."""

from typing import TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

M = TypeVar("M", bound=Model)
P = TypeVar("P", bound=Model)


class NoAddAdmin(admin.ModelAdmin[M]):
    """Rows made by their services: shown, and changed where the page allows, never added here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class FieldsReadOnlyAdmin(NoAddAdmin[M]):
    """Rows their services own, shown with every field read-only: looked at (and deleted, or acted
    on through the page's actions), never edited here."""

    def get_readonly_fields(self, request: HttpRequest, obj: M | None = None) -> list[str]:
        return [field.name for field in self.model._meta.fields]


class ReadOnlyAdmin(NoAddAdmin[M]):
    """Records the system keeps: shown, never added or changed here."""

    def has_change_permission(self, request: HttpRequest, obj: M | None = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline[M, P]):
    """Rows the system writes, shown under their parent: nothing to add, change or delete."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: P | None = None) -> bool:
        return False
