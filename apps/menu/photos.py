"""Menu photos: what an owner uploads is checked (JPEG, PNG or WebP; MENU_PHOTO_MAX_BYTES and
MENU_PHOTO_MAX_PIXELS), turned upright, shrunk to MENU_PHOTO_SIZE on its longest side and
re-encoded as WebP by Pillow, so no metadata (EXIF location, camera, comments) of the upload
survives. It is stored through Django's storage API under the `menu_photos` alias of STORAGES:
local media on the embedded default, an S3-compatible bucket through django-storages when
MENU_PHOTOS_BUCKET is set. Names are the content's hash, so a photo's URL never changes meaning
and can be cached for a year."""

import hashlib
import io
from typing import Protocol

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import Storage, storages
from django.http import HttpRequest
from django.utils.translation import gettext_noop
from PIL import Image, ImageOps, UnidentifiedImageError

from apps.core.errors import DomainError, ErrorCode

ACCEPTED_FORMATS = {"JPEG", "PNG", "WEBP"}
CACHE_CONTROL = "public, max-age=31536000, immutable"  # names are content hashes


def photo_storage() -> Storage:
    """The storage of menu photos, looked up when called (tests swap STORAGES)."""
    return storages["menu_photos"]


def _refuse(message: str, **params: object) -> DomainError:
    """`message` a msgid (gettext_noop) with `{name}` placeholders for `params`, as DomainError's."""
    refusal = DomainError(ErrorCode.VALIDATION_ERROR, message, params=params)
    refusal.details = {"photo": [refusal.message]}
    return refusal


class Readable(Protocol):
    """What a photo is read from: an upload, or the demo's drawing in memory."""

    def read(self, size: int = ..., /) -> bytes: ...


def photo_prepare(upload: Readable) -> ContentFile[bytes]:
    """The upload as a stripped, resized WebP named by its hash; DomainError when it is not an
    accepted image or exceeds the limits (nothing is decoded past the header then)."""
    max_bytes = settings.MENU_PHOTO_MAX_BYTES
    data = upload.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise _refuse(gettext_noop("The photo is larger than {megabytes} MB."), megabytes=max_bytes // (1024 * 1024))
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format not in ACCEPTED_FORMATS:
                raise _refuse(gettext_noop("Upload a JPEG, PNG or WebP photo."))
            width, height = image.size
            if width * height > settings.MENU_PHOTO_MAX_PIXELS:
                raise _refuse(
                    gettext_noop("The photo has more than {pixels:,} pixels."), pixels=settings.MENU_PHOTO_MAX_PIXELS
                )
            image.load()
            upright = ImageOps.exif_transpose(image)
            has_alpha = upright.mode in ("RGBA", "LA", "PA") or "transparency" in upright.info
            pixels = upright.convert("RGBA" if has_alpha else "RGB")
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, ValueError, SyntaxError) as exc:
        raise _refuse(gettext_noop("The file is not a readable JPEG, PNG or WebP image.")) from exc
    size = settings.MENU_PHOTO_SIZE
    pixels.thumbnail((size, size), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    pixels.save(out, format="WEBP", quality=82, method=4)  # no exif/icc/xmp passed: none written
    content = out.getvalue()
    return ContentFile(content, name=f"{hashlib.sha256(content).hexdigest()[:32]}.webp")


def photo_save(content: ContentFile[bytes]) -> str:
    """Store a prepared photo; its name (the same content twice is stored once)."""
    storage = photo_storage()
    name = str(content.name)  # photo_prepare names every file by its content hash
    if storage.exists(name):
        return name
    return storage.save(name, content)


def photo_url(name: str, request: HttpRequest | None = None) -> str | None:
    """The photo's absolute URL, or None without a photo (the apps show a placeholder)."""
    if not name:
        return None
    url = photo_storage().url(name)
    if request is not None:
        return request.build_absolute_uri(url)  # leaves a bucket's absolute URL as it is
    return url
