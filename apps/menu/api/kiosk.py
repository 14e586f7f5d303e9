"""Kiosk API: the menu of the kiosk's own business, in the customer's language.

Cheap to repeat: the answer carries an ETag made of the active catalog's id and version (bumped
by every menu change, stock running out included) and the language, so a kiosk that sends
If-None-Match gets 304 after one indexed query; a changed menu is built once per language and
host and kept in the cache for MENU_BODY_CACHE_SECONDS under that version."""

from typing import Any

from django.conf import settings
from django.core.cache import cache
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from apps.api.inputs import validated
from apps.core.locales import LOCALE_MAX_LENGTH, LOCALE_PATTERN
from apps.kiosks.api.base import KioskAPIView, KioskRequest
from apps.menu import selectors
from apps.menu.bodies import PublicMenuOut, public_menu_body
from apps.menu.labels import LANGUAGES

CACHE_CONTROL = "private, no-cache"  # keep it, but ask (If-None-Match) before each use


class PublicMenuQuery(serializers.Serializer[None]):
    locale = serializers.RegexField(
        LOCALE_PATTERN,
        max_length=LOCALE_MAX_LENGTH,
        required=False,
        error_messages={"invalid": "Give a language tag such as es or es-MX."},
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(self.initial_data) - set(self.fields))
        if unknown:  # a misspelt `locale` must not silently answer the default language
            raise serializers.ValidationError({name: ["Unknown query parameter: only locale."] for name in unknown})
        return attrs


def _language(locale: str | None, default_language: str) -> str:
    """The menu language for a BCP 47 tag: its primary subtag when the menu has it, else the
    business's."""
    primary = (locale or "").replace("_", "-").split("-")[0].lower()
    return primary if primary in LANGUAGES else default_language


class PublicMenuView(KioskAPIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "locale",
                str,
                description="The customer's language (BCP 47, e.g. es or es-MX). Words without a translation, and "
                "languages the menu does not have, come in the business's menu language (default_locale).",
            ),
            OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER, description="The ETag of a menu held."),
            OpenApiParameter(
                "ETag",
                str,
                OpenApiParameter.HEADER,
                response=[200, 304],
                description="The menu's version in this language: send it back as If-None-Match.",
            ),
            OpenApiParameter(
                "Cache-Control", str, OpenApiParameter.HEADER, response=[200, 304], description="private, no-cache"
            ),
        ],
        description="The spec's menu shape (categories, items, modifier groups, options) of the business's "
        "active catalog, names in the customer's language, and on each item `allergens` (the EU's 14 codes), "
        "`dietary` tags, `sold_out` and an absolute `photo_url` (null without a photo). No active catalog: "
        "`categories` is empty. Conditional: with If-None-Match of the current ETag the answer is 304 with no "
        "body; the ETag changes with every menu edit and whenever an item sells out or comes back.",
        responses={200: PublicMenuOut, 304: OpenApiResponse(description="The menu held is current.")},
        summary="The active menu of this kiosk's business, in the customer's language",
    )
    def get(self, request: KioskRequest) -> Response:
        query = validated(PublicMenuQuery, request.query_params)
        business_id = request.auth.business_id
        head = selectors.active_catalog_head(business_id=business_id)
        if head is None:
            language = _language(query.get("locale"), "en")
            return Response({"locale": language, "default_locale": language, "categories": []})
        language = _language(query.get("locale"), head.language)
        etag = f'"menu-{head.pk}-{head.version}-{language}"'
        headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL}
        if etag in request.headers.get("If-None-Match", ""):
            return Response(status=304, headers=headers)
        key = f"menu-body:{head.pk}:{head.version}:{language}:{request.scheme}://{request.get_host()}"
        body = cache.get(key)
        if body is None:
            categories = selectors.active_catalog_categories(business_id=business_id)
            body = public_menu_body(categories, language=language, default_language=head.language, request=request)
            cache.set(key, body, timeout=settings.MENU_BODY_CACHE_SECONDS)
        return Response(body, headers=headers)
