"""The demo processor's card readers answer the real `stripe` library's Terminal calls with the
processor's shapes: locations, simulated readers, process_payment_intent (card_present intents
only), cancel_action and the test helper present_payment_method."""

import pytest
import stripe

from apps.billing import processor
from apps.demo_processor import services as demo_processor
from apps.demo_processor import terminal as demo_terminal

ACCOUNT = "acct_demo_terminal"
OPTIONS = {"stripe_account": ACCOUNT}


@pytest.fixture
def api(db):
    demo_processor.account_open(ACCOUNT)
    return processor.client().v1


@pytest.fixture
def location(api):
    return api.terminal.locations.create(
        params={"display_name": "Main Street", "address": {"country": "US", "line1": "1 Main St"}}, options=OPTIONS
    )


def _register(api, location, code="simulated-wpe"):
    return api.terminal.readers.create(
        params={"registration_code": code, "label": "Counter", "location": location.id}, options=OPTIONS
    )


def _intent(api, methods=("card_present",)):
    return api.payment_intents.create(
        params={"amount": 1250, "currency": "usd", "payment_method_types": list(methods)}, options=OPTIONS
    )


def test_locations_are_created_and_listed_on_the_connected_account(api, location):
    assert location.object == "terminal.location" and location.display_name == "Main Street"
    assert location.address["country"] == "US"
    listed = api.terminal.locations.list(options=OPTIONS)
    assert [found.id for found in listed.data] == [location.id]
    assert api.terminal.locations.list(options={"stripe_account": "acct_other"}).data == []


@pytest.mark.parametrize(
    ("code", "device_type"), [("simulated-wpe", "simulated_wisepos_e"), ("simulated-s700", "simulated_stripe_s700")]
)
def test_the_simulated_registration_codes_give_simulated_readers(api, location, code, device_type):
    reader = _register(api, location, code)
    assert reader.object == "terminal.reader"
    assert (reader.device_type, reader.label, reader.status, reader.location) == (
        device_type,
        "Counter",
        "online",
        location.id,
    )
    assert reader.action is None
    assert api.terminal.readers.retrieve(reader.id, options=OPTIONS).id == reader.id


def test_an_unknown_registration_code_is_refused(api, location):
    with pytest.raises(stripe.InvalidRequestError) as refused:
        _register(api, location, "purple-cat-42")
    assert refused.value.param == "registration_code"


def test_a_deleted_reader_is_gone(api, location):
    reader = _register(api, location)
    deleted = api.terminal.readers.delete(reader.id, options=OPTIONS)
    assert deleted.deleted is True
    with pytest.raises(stripe.InvalidRequestError) as gone:
        api.terminal.readers.retrieve(reader.id, options=OPTIONS)
    assert gone.value.http_status == 404


def test_a_tapped_card_pays_the_intent_the_reader_holds(api, location, monkeypatch):
    sent = []
    monkeypatch.setattr(
        "apps.demo_processor.processor_webhooks.send", lambda kind, obj, account: sent.append((kind, obj))
    )
    reader, intent = _register(api, location), _intent(api)
    holding = api.terminal.readers.process_payment_intent(
        reader.id, params={"payment_intent": intent.id}, options=OPTIONS
    )
    action = holding.action
    assert (action.type, action.status, action.process_payment_intent.payment_intent) == (
        "process_payment_intent",
        "in_progress",
        intent.id,
    )
    tapped = api.test_helpers.terminal.readers.present_payment_method(
        reader.id, params={"type": "card_present", "card_present": {"number": "4242424242424242"}}, options=OPTIONS
    )
    assert tapped.action.status == "succeeded"
    paid = api.payment_intents.retrieve(intent.id, params={"expand": ["latest_charge"]}, options=OPTIONS)
    assert paid.status == "succeeded"
    details = paid.latest_charge.payment_method_details
    assert (details.type, details.card_present.last4, details.card_present.read_method) == (
        "card_present",
        "4242",
        "contactless_emv",
    )
    assert [kind for kind, _ in sent] == ["payment_intent.succeeded", "terminal.reader.action_succeeded"]


@pytest.mark.parametrize(
    ("number", "decline_code"), [("4000000000000002", "generic_decline"), ("4000000000009995", "insufficient_funds")]
)
def test_a_declined_card_fails_the_action_and_leaves_the_intent_payable(
    api, location, monkeypatch, number, decline_code
):
    sent = []
    monkeypatch.setattr(
        "apps.demo_processor.processor_webhooks.send", lambda kind, obj, account: sent.append((kind, obj))
    )
    reader, intent = _register(api, location), _intent(api)
    api.terminal.readers.process_payment_intent(reader.id, params={"payment_intent": intent.id}, options=OPTIONS)
    tapped = api.test_helpers.terminal.readers.present_payment_method(
        reader.id, params={"card_present": {"number": number}}, options=OPTIONS
    )
    assert (tapped.action.status, tapped.action.failure_code) == ("failed", "card_declined")
    assert tapped.action.failure_message
    again = api.payment_intents.retrieve(intent.id, options=OPTIONS)
    assert again.status == "requires_payment_method"
    assert again.last_payment_error.decline_code == decline_code
    assert [kind for kind, _ in sent] == ["payment_intent.payment_failed", "terminal.reader.action_failed"]
    # the same intent may go back to the reader for another card
    back = api.terminal.readers.process_payment_intent(reader.id, params={"payment_intent": intent.id}, options=OPTIONS)
    assert back.action.status == "in_progress"


def test_only_card_present_intents_go_to_a_reader(api, location):
    reader, intent = _register(api, location), _intent(api, methods=("card",))
    with pytest.raises(stripe.InvalidRequestError) as refused:
        api.terminal.readers.process_payment_intent(reader.id, params={"payment_intent": intent.id}, options=OPTIONS)
    assert refused.value.param == "payment_intent"


def test_a_card_present_intent_cannot_be_paid_with_a_typed_card(api, location):
    intent = _intent(api)
    with pytest.raises(Exception) as refused:
        demo_processor.confirm(intent_id=intent.id, client_secret=intent.client_secret, card_number="4242424242424242")
    assert "reader" in str(refused.value)


def _present_refused(api, reader_id, sent):
    """present_payment_method is refused with the processor's error; nothing is paid or sent."""
    with pytest.raises(stripe.InvalidRequestError) as refused:
        api.test_helpers.terminal.readers.present_payment_method(
            reader_id, params={"card_present": {"number": "4242424242424242"}}, options=OPTIONS
        )
    assert refused.value.http_status == 400
    assert sent == []
    return refused.value.code


@pytest.fixture
def sent(monkeypatch):
    events = []
    monkeypatch.setattr(
        "apps.demo_processor.processor_webhooks.send", lambda kind, obj, account: events.append((kind, obj))
    )
    return events


def test_cancel_action_leaves_the_reader_idle_and_present_then_refused(api, location, sent):
    reader, intent = _register(api, location), _intent(api)
    api.terminal.readers.process_payment_intent(reader.id, params={"payment_intent": intent.id}, options=OPTIONS)
    idle = api.terminal.readers.cancel_action(reader.id, options=OPTIONS)
    assert idle.action is None
    assert _present_refused(api, reader.id, sent) == "terminal_reader_invalid_action"
    assert api.payment_intents.retrieve(intent.id, options=OPTIONS).status == "requires_payment_method"


def test_present_is_refused_once_the_held_intent_was_cancelled_and_nothing_is_charged(api, location, sent):
    reader, intent = _register(api, location), _intent(api)
    api.terminal.readers.process_payment_intent(reader.id, params={"payment_intent": intent.id}, options=OPTIONS)
    api.payment_intents.cancel(intent.id, options=OPTIONS)  # no cancel_action: the reader still shows it
    assert _present_refused(api, reader.id, sent) == "payment_intent_unexpected_state"
    assert api.payment_intents.retrieve(intent.id, options=OPTIONS).status == "canceled"


def test_present_is_refused_after_the_card_was_answered_until_the_reader_holds_the_payment_again(api, location, sent):
    reader, intent = _register(api, location), _intent(api)
    api.terminal.readers.process_payment_intent(reader.id, params={"payment_intent": intent.id}, options=OPTIONS)
    api.test_helpers.terminal.readers.present_payment_method(
        reader.id, params={"card_present": {"number": "4000000000000002"}}, options=OPTIONS
    )
    sent.clear()
    assert _present_refused(api, reader.id, sent) == "terminal_reader_invalid_action"  # declined: action failed
    assert api.payment_intents.retrieve(intent.id, options=OPTIONS).status == "requires_payment_method"


def test_present_on_an_offline_reader_is_refused(api, location, sent):
    reader, intent = _register(api, location), _intent(api)
    api.terminal.readers.process_payment_intent(reader.id, params={"payment_intent": intent.id}, options=OPTIONS)
    demo_terminal.reader_set_status(reader.id, online=False)
    assert _present_refused(api, reader.id, sent) == "terminal_reader_offline"
    assert api.payment_intents.retrieve(intent.id, options=OPTIONS).status == "requires_payment_method"


def test_an_offline_reader_and_a_busy_reader_are_refused_with_the_processors_codes(api, location):
    reader, first, second = _register(api, location), _intent(api), _intent(api)
    api.terminal.readers.process_payment_intent(reader.id, params={"payment_intent": first.id}, options=OPTIONS)
    with pytest.raises(stripe.StripeError) as busy:
        api.terminal.readers.process_payment_intent(reader.id, params={"payment_intent": second.id}, options=OPTIONS)
    assert busy.value.code == "terminal_reader_busy"
    demo_terminal.reader_set_status(reader.id, online=False)
    assert api.terminal.readers.retrieve(reader.id, options=OPTIONS).status == "offline"
    with pytest.raises(stripe.InvalidRequestError) as offline:
        api.terminal.readers.process_payment_intent(reader.id, params={"payment_intent": second.id}, options=OPTIONS)
    assert offline.value.code == "terminal_reader_offline"
