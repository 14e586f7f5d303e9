"""Panel sign-in (password, then TOTP when enrolled), sign-out, password reset, TOTP enrolment."""

import re

from django.core import mail
from django.test import Client

from apps.accounts.models import SealedTotpDevice
from tests import factories
from tests.panel.support import current_code


def login(client, email, password=factories.PASSWORD, next_url=""):
    path = "/panel/login" + (f"?next={next_url}" if next_url else "")
    return client.post(path, {"email": email, "password": password})


def test_owner_signs_in_and_is_sent_where_they_were_going(panel_owner):
    client = Client()
    response = login(client, panel_owner.email, next_url="/panel/orders")
    assert response.status_code == 302 and response["Location"] == "/panel/orders"
    assert client.get("/panel/orders").status_code == 200


def test_an_offsite_next_is_ignored(panel_owner):
    response = login(Client(), panel_owner.email, next_url="https://evil.example/")
    assert response["Location"] == "/panel/"


def form_errors(response) -> list[str]:
    """The form's error messages (the page's own words say "agent dashboard" too)."""
    return [str(error) for error in response.context["form"].non_field_errors()]


def test_wrong_password_and_agents_are_refused_with_a_message(panel_owner, agent):
    wrong = login(Client(), panel_owner.email, password="nope")
    assert wrong.status_code == 200 and b"The email or password is incorrect." in wrong.content
    as_agent = login(Client(), agent.email)
    assert as_agent.status_code == 200 and "_auth_user_id" not in as_agent.client.session
    [refusal] = form_errors(as_agent)
    assert "agent dashboard" in refusal
    assert f'<ul class="errorlist"><li>{refusal}</li></ul>' in as_agent.content.decode()  # shown in the form
    disabled = factories.PanelUserFactory(owner=panel_owner.owner, is_active=False)
    assert b"disabled" in login(Client(), disabled.email).content


def test_totp_is_asked_after_the_password(panel_owner):
    device = factories.TOTPDeviceFactory(user=panel_owner)
    client = Client()
    response = login(client, panel_owner.email)
    assert response["Location"] == "/panel/login/2fa"
    assert client.get("/panel/").status_code == 302  # not signed in yet
    wrong = client.post("/panel/login/2fa", {"code": f"{(int(current_code(device)) + 1) % 10**6:06d}"})
    assert wrong.status_code == 200 and b"incorrect" in wrong.content
    # django-otp slows retries after a failure; a real user waits a second, the test resets it.
    SealedTotpDevice.objects.filter(pk=device.pk).update(throttling_failure_count=0, throttling_failure_timestamp=None)
    right = client.post("/panel/login/2fa", {"code": current_code(device)})
    assert right.status_code == 302 and right["Location"] == "/panel/"
    assert client.get("/panel/").status_code == 200


def test_five_wrong_codes_send_the_user_back_to_the_password(panel_owner):
    device = factories.TOTPDeviceFactory(user=panel_owner)
    client = Client()
    login(client, panel_owner.email)

    def wrong_code():
        SealedTotpDevice.objects.filter(pk=device.pk).update(
            throttling_failure_count=0, throttling_failure_timestamp=None
        )
        return client.post("/panel/login/2fa", {"code": f"{(int(current_code(device)) + 1) % 10**6:06d}"})

    for _ in range(4):
        assert wrong_code().status_code == 200
    last = wrong_code()
    assert last.status_code == 302 and last["Location"] == "/panel/login"
    assert client.get("/panel/login/2fa")["Location"] == "/panel/login"


def test_logout_is_a_post_and_ends_the_session(owner_client):
    assert owner_client.get("/panel/logout").status_code == 405
    assert owner_client.post("/panel/logout")["Location"] == "/panel/login"
    assert owner_client.get("/panel/").status_code == 302


def test_password_reset_emails_a_working_link(panel_owner):
    client = Client()
    response = client.post("/panel/password-reset", {"email": panel_owner.email})
    assert response["Location"] == "/panel/password-reset/sent"
    [message] = mail.outbox
    link = re.search(r"https?://[^/]+(/panel/password-reset/\S+)", message.body).group(1)
    form = client.get(link, follow=True)
    assert b"Choose a new password" in form.content
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": "a-brand-new-pass", "new_password2": "a-brand-new-pass"}
    )
    assert done["Location"] == "/panel/password-reset/done"
    panel_owner.refresh_from_db()
    assert panel_owner.check_password("a-brand-new-pass")


def test_totp_enrolment_shows_a_qr_code_and_needs_a_code(owner_client, panel_owner):
    owner_client.post("/panel/account/two-factor", {"action": "start"})
    page = owner_client.get("/panel/account/two-factor")
    assert b"data:image/svg+xml;base64," in page.content and b'id="totp-key"' in page.content
    device = SealedTotpDevice.objects.get(user=panel_owner)
    owner_client.post("/panel/account/two-factor", {"action": "confirm", "code": current_code(device)})
    device.refresh_from_db()
    assert device.confirmed
    owner_client.post("/panel/account/two-factor", {"action": "disable"})
    assert not SealedTotpDevice.objects.filter(user=panel_owner).exists()
