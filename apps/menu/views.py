"""Menu photos kept on local media (the embedded default, or a shared volume): served by the app
with a year's cache headers, their names being content hashes. With a bucket (MENU_PHOTOS_BUCKET)
photo URLs point at the bucket and this view answers 404."""

import mimetypes

from django.core.exceptions import SuspiciousFileOperation
from django.core.files.storage import FileSystemStorage
from django.http import FileResponse, Http404, HttpRequest
from django.views.decorators.http import require_safe

from apps.menu import photos


@require_safe
def menu_photo(request: HttpRequest, name: str) -> FileResponse:
    storage = photos.photo_storage()
    if not isinstance(storage, FileSystemStorage):
        raise Http404
    try:
        handle = storage.open(name, "rb")
    except (FileNotFoundError, IsADirectoryError, SuspiciousFileOperation) as exc:
        raise Http404 from exc
    content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    response = FileResponse(handle, content_type=content_type)
    response["Cache-Control"] = photos.CACHE_CONTROL
    response["X-Content-Type-Options"] = "nosniff"
    return response
