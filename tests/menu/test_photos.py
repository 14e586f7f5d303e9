"""Menu photos: checked, re-encoded (WebP), resized and stripped of metadata by Pillow; stored
through Django's storage API (local media here, an S3-compatible bucket in production: tested
against moto's S3 server) and served with cache headers."""

import io
import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from django.core.files.storage import storages
from PIL import Image

from apps.core.errors import DomainError
from apps.menu import photos
from apps.menu import services as menu_services
from tests import factories
from tests.menu.conftest import image_upload
from tests.support.processes import ROOT, free_port, wait_until


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_accepted_formats_are_reencoded_resized_and_stripped(settings, fmt):
    settings.MENU_PHOTO_SIZE = 800
    content = photos.photo_prepare(image_upload(fmt, size=(1600, 1200), exif=fmt != "PNG"))
    assert content.name.endswith(".webp")
    data = content.read()
    assert b"SecretCam" not in data and b"Leaky" not in data
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "WEBP"
        assert image.size == (800, 600)
        assert not image.getexif() and "exif" not in image.info


def test_transparency_is_kept():
    content = photos.photo_prepare(image_upload("PNG", size=(100, 100), mode="RGBA"))
    with Image.open(io.BytesIO(content.read())) as image:
        assert image.mode == "RGBA"


@pytest.mark.parametrize(
    ("upload", "message"),
    [
        (lambda: image_upload("GIF", size=(10, 10), name="a.gif"), "JPEG, PNG or WebP"),
        (lambda: image_upload("BMP", size=(10, 10), name="a.bmp"), "JPEG, PNG or WebP"),
        (lambda: io.BytesIO(b"<?php echo 1; ?>"), "not a readable"),
        (lambda: io.BytesIO(image_upload("PNG").read()[:80]), "not a readable"),
    ],
)
def test_other_files_are_refused(upload, message):
    with pytest.raises(DomainError) as refused:
        photos.photo_prepare(upload())
    assert message in refused.value.message
    assert "photo" in refused.value.details


def test_limits_of_bytes_and_pixels(settings):
    settings.MENU_PHOTO_MAX_PIXELS = 1000 * 1000
    with pytest.raises(DomainError, match="pixels"):
        photos.photo_prepare(image_upload("PNG", size=(1001, 1000)))
    settings.MENU_PHOTO_MAX_BYTES = 2000
    with pytest.raises(DomainError, match="larger than"):
        photos.photo_prepare(io.BytesIO(b"\xff" * 2001))


def test_an_item_photo_is_stored_and_served_with_cache_headers(photo_dir, business, client):
    item = factories.MenuItemFactory(
        category=factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    )
    menu_services.menu_item_save(item=item, photo_upload=image_upload("JPEG"))
    item.refresh_from_db()
    assert (photo_dir / item.photo.name).is_file()
    url = photos.photo_url(item.photo.name)
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/webp"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert b"".join(response.streaming_content)[:4] == b"RIFF"
    assert client.get(url.replace(".webp", "0.webp")).status_code == 404
    assert client.get(photos.photo_storage().base_url + "../secrets.json").status_code == 404

    menu_services.menu_item_save(item=item, remove_photo=True)
    item.refresh_from_db()
    assert item.photo.name == ""


def test_a_refused_photo_changes_nothing(photo_dir, business):
    item = factories.MenuItemFactory(
        category=factories.CategoryFactory(catalog=factories.CatalogFactory(business=business)), price_cents=500
    )
    with pytest.raises(DomainError):
        menu_services.menu_item_save(item=item, photo_upload=io.BytesIO(b"nope"), price_cents=700)
    item.refresh_from_db()
    assert item.price_cents == 500 and not item.photo


@pytest.fixture
def s3_server(tmp_path):
    """moto's S3-compatible server, a real HTTP server on a loopback port."""
    port = free_port()
    log = open(tmp_path / "moto.log", "wb")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "moto_server"), "-H", "127.0.0.1", "-p", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    endpoint = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: urllib.request.urlopen(endpoint, timeout=1), 30, "moto's S3 server to answer")
        yield endpoint
    finally:
        process.terminate()
        process.wait(10)
        log.close()


def test_photos_in_an_s3_compatible_bucket(settings, s3_server, monkeypatch, business):
    import boto3

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test-key")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
    s3 = boto3.client("s3", endpoint_url=s3_server, region_name="us-east-1")
    s3.create_bucket(Bucket="menu-photos-test")
    # Production's bucket lets anyone read the photos (docs/kiosk-and-agent.md), as here.
    public_read = {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Principal": "*",
                "Action": "s3:GetObject",
                "Resource": "arn:aws:s3:::menu-photos-test/menu-photos/*",
            }
        ],
    }
    s3.put_bucket_policy(Bucket="menu-photos-test", Policy=json.dumps(public_read))
    settings.STORAGES = {
        **settings.STORAGES,
        "menu_photos": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": "menu-photos-test",
                "endpoint_url": s3_server,
                "region_name": "us-east-1",
                "location": "menu-photos",
                "querystring_auth": False,
                "file_overwrite": False,
                "object_parameters": {"CacheControl": photos.CACHE_CONTROL},
            },
        },
    }
    assert type(storages["menu_photos"]).__name__ == "S3Storage"
    item = factories.MenuItemFactory(
        category=factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    )
    menu_services.menu_item_save(item=item, photo_upload=image_upload("PNG"))
    item.refresh_from_db()
    url = photos.photo_url(item.photo.name)
    assert url == f"{s3_server}/menu-photos-test/menu-photos/{item.photo.name}"
    with urllib.request.urlopen(url, timeout=5) as response:
        assert response.headers["Cache-Control"] == photos.CACHE_CONTROL
        assert response.read()[:4] == b"RIFF"
    # The same photo again is stored once, under the same name.
    assert photos.photo_save(photos.photo_prepare(image_upload("PNG"))) == item.photo.name


def test_the_settings_pick_a_bucket_from_the_environment(tmp_path):
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); django.setup(); "
        "from django.conf import settings; print(settings.STORAGES['menu_photos']['BACKEND'])"
    )
    env = {"APP_ENV": "test", "MENU_PHOTOS_BUCKET": "b", "PATH": "/usr/bin:/bin", "VAR_DIR": str(tmp_path)}
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert out.stdout.strip() == "storages.backends.s3.S3Storage"
