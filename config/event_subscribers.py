"""What every domain event causes: the one list to read (apps.core.events.emit runs it).

Each event type maps to its subscribers, called in this order at emit, inside the transaction of
the change, with (event, the DomainEvent row of its webhook or None). Nothing they cause leaves
before commit, so a rollback sends nothing:
- webhook_deliveries writes the outbox rows (one per subscription that wants the event), drained
  after commit;
- *_messages.* build real-time messages (docs/realtime.md), sent on commit by the broadcast API;
- forget_* drop a cached copy now and again at commit (a rollback costs a cache miss).
Invalidations come before messages, so a client that polls on hearing a message reads fresh.
Routing learns of session changes here (apps/routing/services.py): sessions does not import it.
The events themselves are in each app's domain_events.py; a test checks every one is listed.
"""

from apps.accounts import realtime_messages as agent_messages
from apps.accounts.domain_events import AgentStatusChanged, BusinessChanged, OwnerReinstated, OwnerSuspended
from apps.agent_app import realtime_messages as held_messages
from apps.billing import job_queue as billing_jobs
from apps.billing import realtime_messages as payment_messages
from apps.billing.domain_events import (
    PaymentCancelled,
    PaymentChargedLate,
    PaymentFailed,
    PaymentRequested,
    PaymentSucceeded,
    ReaderActionChanged,
    ReaderPaymentNeedsCard,
    ReaderRefused,
)
from apps.billing.services import reader_refusals
from apps.chat import realtime_messages as chat_messages
from apps.chat.domain_events import ChatMessagePosted
from apps.demo import printer_seed as demo_printers
from apps.demo import reader_seed as demo_readers
from apps.displays import realtime_messages as display_messages
from apps.kiosks import realtime_messages as kiosk_messages
from apps.kiosks.device_cache import forget_business_credentials, forget_credentials, forget_heartbeat
from apps.kiosks.domain_events import KioskCameOnline, KioskPaired, KioskRenamed, KioskUnpaired, KioskWentOffline
from apps.menu.domain_events import InventoryLow
from apps.orders import realtime_messages as order_messages
from apps.orders.domain_events import CartReplaced, OrderCreated, OrderStatusChanged, PaymentCaptured
from apps.printing import services as printing
from apps.printing.domain_events import PrinterCameOnline, PrinterWentOffline
from apps.reports.agent_load import record_signed_in
from apps.reports.breaks import record_break
from apps.routing import queue as routing_queue
from apps.routing import realtime_messages as routing_messages
from apps.routing import services as routing
from apps.routing.domain_events import OfferClosed, OfferMade, QueueChanged, SessionTransferred, TransferLapsed
from apps.sessions import realtime_messages as session_messages
from apps.sessions.domain_events import (
    AccessibleModeChanged,
    CustomerLocaleChanged,
    SessionAccepted,
    SessionEnded,
    SessionMoved,
    SessionStarted,
)
from apps.sessions.status_cache import forget_status
from apps.webhooks.outbox import webhook_deliveries

SUBSCRIBERS = {
    # Sessions: the kiosk hears every transition; agents hear of new, claimed and withdrawn ones.
    SessionStarted: [
        webhook_deliveries,
        session_messages.session_status_changed,  # SessionStatusChanged to the kiosk
        routing.dispatch_on,  # the router offers it on commit (OfferMade)
        routing_queue.queue_changed,  # the owner's waiting kiosks: QueueUpdated, cached copies dropped
        routing_messages.queue_board_changed,  # QueueBoardChanged: the panel's Queue page
    ],
    SessionAccepted: [
        routing.session_accepted,  # its offers settled: SessionClaimed to the other agents offered it
        webhook_deliveries,
        forget_status,  # the kiosk poll's cached status body
        session_messages.session_status_changed,
        routing_queue.queue_changed,
        routing_messages.queue_board_changed,
    ],
    SessionTransferred: [  # no webhook: the spec's event list is closed (docs/decisions/routing.md)
        reader_refusals.forget,  # the reader's refusal of the sender's send to payment is over
        forget_status,
        routing_messages.session_transferred,  # SessionTransferred to both agents and the kiosk
        routing_messages.call_members_changed,  # the old agent is dropped from the call channel
        session_messages.session_status_changed,  # its `agent` names the receiver
        routing_queue.queue_changed,  # the sender is available again
        routing_messages.queue_board_changed,
    ],
    TransferLapsed: [routing_messages.transfer_lapsed],  # TransferLapsed to the sender
    CustomerLocaleChanged: [  # no webhook: docs/decisions/kiosk-app.md ("The customer changes language")
        forget_status,  # the waiting place's estimate is for the customer's language
        routing_messages.customer_locale_changed,  # CustomerLocaleChanged to the serving and offered agents
        routing_queue.queue_changed,
    ],
    AccessibleModeChanged: [  # no webhook; the status body says it
        forget_status,
        routing.dispatch_on,  # a waiting customer in the mode is offered first (router.session_order)
        routing_queue.queue_changed,  # so the places in line move
        held_messages.session_updated,  # SessionUpdated to the agent serving it (the dashboard's note)
        routing_messages.offer_accessible_mode_changed,  # OfferAccessibleModeChanged to the offered agents
    ],
    SessionMoved: [
        reader_refusals.forget,  # a send went through (or the session moved on): the refusal is over
        routing.session_moved,  # a transfer withdrawn; a customer paying alone leaves the line, or rejoins it
        forget_status,
        session_messages.session_status_changed,
        held_messages.session_updated,
    ],
    SessionEnded: [
        reader_refusals.forget,
        routing.session_ended,  # its transfer and offers withdrawn: SessionWithdrawn to agents offered it, if it waited
        webhook_deliveries,
        forget_status,
        session_messages.call_ended,  # the kiosk and agent are dropped from the call channel
        session_messages.session_status_changed,
        routing_queue.queue_changed,
        routing_messages.queue_board_changed,
        held_messages.session_updated,  # the serving agent's card says how it ended
    ],
    # Routing (apps/routing/offers.py): agents hear of the offers made to them and of their end.
    OfferMade: [routing_messages.session_incoming],  # SessionIncoming to the agent offered it
    OfferClosed: [
        routing_messages.offer_withdrawn,  # SessionWithdrawn to that agent
        routing_messages.queue_board_changed,  # the agent is no longer "offered"
    ],
    QueueChanged: [routing_queue.queue_changed, routing_messages.queue_board_changed],
    AgentStatusChanged: [
        record_break,  # an AgentBreak row opened or closed: the reports' time on break
        record_signed_in,  # an AgentSignedIn row opened or closed: the reports' agents' load
        agent_messages.agent_status_changed,  # AgentStatusChanged to the agent's own channel
        routing.dispatch_on,  # an agent become available is offered the oldest session at once
        routing_queue.queue_changed,  # agents_available of the owner's waiting kiosks
        routing_messages.queue_board_changed,
    ],
    # Orders
    CartReplaced: [order_messages.order_updated, held_messages.session_updated],  # OrderUpdated to the kiosk
    OrderStatusChanged: [
        webhook_deliveries,
        display_messages.order_moved,  # TicketChanged to the kitchen, BoardChanged to the board
        printing.order_moved,  # refunded: "CANCELLED #42" on the printers that printed it
    ],
    PaymentCaptured: [webhook_deliveries],
    OrderCreated: [
        webhook_deliveries,
        printing.order_confirmed,  # the kitchen tickets, printed on commit (never before payment)
        display_messages.order_waits_for_printing,  # PrintersChanged, while a printer cannot print
    ],
    # Payments: the kiosk hears each; the agent serving the session gets its read (SessionUpdated).
    PaymentRequested: [payment_messages.payment_requested, held_messages.session_updated],
    PaymentFailed: [payment_messages.payment_failed, held_messages.session_updated],
    PaymentCancelled: [payment_messages.payment_cancelled, held_messages.session_updated],
    PaymentSucceeded: [payment_messages.payment_succeeded, held_messages.session_updated],
    ReaderActionChanged: [held_messages.session_updated],  # the reader's status on the agent's card
    # Card readers: a declined card's intent goes back to the reader; a late charge is refunded.
    ReaderPaymentNeedsCard: [billing_jobs.reader_take_payment_again],
    PaymentChargedLate: [billing_jobs.refund_late_payment],
    # The reader refused the agent's send: the kiosk's status body and channel say it.
    ReaderRefused: [forget_status, payment_messages.reader_refused],  # ReaderRefused to the kiosk
    # Kiosks: presence goes to the owner's channel; every change drops the device's cached row.
    KioskCameOnline: [
        webhook_deliveries,
        forget_credentials,
        kiosk_messages.kiosk_status_changed,  # KioskStatusChanged to the owner's presence channel
    ],
    KioskWentOffline: [
        webhook_deliveries,
        forget_credentials,
        forget_heartbeat,
        kiosk_messages.kiosk_status_changed,
    ],
    KioskPaired: [
        forget_credentials,
        demo_readers.reader_for_newcomers_kiosk,
        demo_printers.receipts_for_newcomers_kiosk,
    ],
    KioskUnpaired: [forget_credentials, forget_heartbeat],
    KioskRenamed: [forget_credentials],
    # Printers: the owner hears when one stops and starts printing.
    PrinterWentOffline: [webhook_deliveries, display_messages.printers_changed],  # PrintersChanged to the kitchen
    PrinterCameOnline: [webhook_deliveries, display_messages.printers_changed],
    # Menu and owners
    InventoryLow: [webhook_deliveries],
    OwnerSuspended: [webhook_deliveries],
    OwnerReinstated: [webhook_deliveries],
    BusinessChanged: [forget_business_credentials],  # its kiosks' cached rows hold the business
    # The session chat: both participants hear it on the call channel
    ChatMessagePosted: [chat_messages.chat_message_posted, held_messages.customer_wrote],  # and to a held card
}
