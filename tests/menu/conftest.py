"""Menu fixtures: photos go to a temporary folder, never to var/media."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image


@pytest.fixture
def photo_dir(settings, tmp_path):
    settings.STORAGES = {
        **settings.STORAGES,
        "menu_photos": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": tmp_path / "menu-photos", "base_url": settings.MENU_PHOTOS_URL},
        },
    }
    return tmp_path / "menu-photos"


def image_upload(fmt: str = "JPEG", size=(1600, 1200), name: str = "photo.jpg", exif: bool = False, mode="RGB"):
    image = Image.new(mode, size, (200, 80, 20) if mode == "RGB" else (200, 80, 20, 128))
    out = io.BytesIO()
    kwargs = {}
    if exif:
        data = Image.Exif()
        data[0x010F] = "SecretCam"  # Make
        data[0x0131] = "Leaky software 1.0"  # Software
        kwargs["exif"] = data.tobytes()
    image.save(out, format=fmt, **kwargs)
    return SimpleUploadedFile(name, out.getvalue(), content_type=f"image/{fmt.lower()}")
