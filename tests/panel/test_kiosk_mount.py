"""The Kiosks page's screen height for accessible mode: an owner or a manager sets where a kiosk's
screen is mounted (its bottom edge above the floor, its visible height); the page says how much of
the screen lies within reach, the kiosk reads the figures with its profile (GET /kiosks/me); bad
figures are said and change nothing; another owner's kiosk is 404."""

import pytest

from apps.kiosks.models import Kiosk
from tests import factories
from tests.panel.support import messages_of


def mount(client, kiosk, height, screen):
    return client.post(
        f"/panel/kiosks/{kiosk.pk}/mount", {"mount_height_mm": height, "screen_height_mm": screen}, follow=True
    )


@pytest.mark.parametrize("client_name", ["owner_client", "manager_client"])
def test_the_mount_is_saved_said_and_read_by_the_kiosk(request, client_name, kiosk, kiosk_client):
    client = request.getfixturevalue(client_name)
    response = mount(client, kiosk, 1000, 440)
    assert response.status_code == 200
    assert "in the lowest 50 % of its screen" in messages_of(response)
    saved = Kiosk.objects.get(pk=kiosk.pk)
    assert (saved.mount_height_mm, saved.screen_height_mm) == (1000, 440)
    assert 'name="mount_height_mm" value="1000"' in response.content.decode()
    profile = kiosk_client.get("/api/public/kiosks/me").json()
    assert profile["mount"] == {"height_mm": 1000, "screen_height_mm": 440, "reach_mm": 1220}


def test_a_screen_mounted_above_the_reach_line_is_said(owner_client, kiosk):
    response = mount(owner_client, kiosk, 1300, 400)
    assert "no control of" in messages_of(response)
    assert Kiosk.objects.get(pk=kiosk.pk).mount_height_mm == 1300


@pytest.mark.parametrize("height,screen", [(-1, 400), (2600, 400), (900, 10), (900, ""), ("high", 400)])
def test_bad_figures_are_said_and_change_nothing(owner_client, kiosk, height, screen):
    response = mount(owner_client, kiosk, height, screen)
    assert response.status_code == 200
    assert "Enter the screen's bottom edge above the floor" in messages_of(response)
    saved = Kiosk.objects.get(pk=kiosk.pk)
    assert (saved.mount_height_mm, saved.screen_height_mm) == (1000, 180)  # the defaults


def test_another_owners_kiosk_is_404(owner_client, other_business):
    other_kiosk = factories.KioskFactory(business=other_business)
    assert mount(owner_client, other_kiosk, 900, 400).status_code == 404
    assert Kiosk.objects.get(pk=other_kiosk.pk).mount_height_mm == 1000
