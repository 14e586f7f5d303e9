"""seed_demo draws and encodes its menu photos on every run (eleven, about 2.5 s on a quiet
machine and several times that under load), and the suite seeds some forty times. The drawings
are deterministic (apps/demo/photos.py: each key seeds its own random generator), so the test
process prepares each photo once through the upload path (its checks and re-encoding, under the
photo settings of the time) and stores the same bytes under the same name on every later seed:
what a test can see (the stored file, its name, the menu item's photo) is what the real path
gives. Servers and commands run as child processes still draw their own."""

from django.conf import settings
from django.core.files.base import ContentFile

from apps.demo import menu_seed
from apps.menu import photos

_prepared: dict[tuple, tuple[bytes, str]] = {}


def stored_photo(key: str) -> str:
    """menu_seed._stored_photo, its drawing and encoding done once per key and photo settings."""
    cache_key = (key, settings.MENU_PHOTO_SIZE, settings.MENU_PHOTO_MAX_BYTES, settings.MENU_PHOTO_MAX_PIXELS)
    if cache_key not in _prepared:
        prepared = photos.photo_prepare(menu_seed.demo_photo(key))
        _prepared[cache_key] = (prepared.read(), str(prepared.name))
    content, name = _prepared[cache_key]
    return photos.photo_save(ContentFile(content, name=name))
