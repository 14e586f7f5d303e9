"""Receipt tokens are kept as display and device tokens are: only their SHA-256 is stored and the
receipt page is found by it. Whoever reads the orders table (or a backup) gets no address that
opens a receipt; the kiosk still reads its receipt_url as often as it asks. A data migration
hashes the tokens stored before, whose addresses keep opening their receipts."""

import hashlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from apps.orders import receipts
from apps.orders.models import Order
from tests import factories

BEFORE, AFTER = ("orders", "0005_order_settings_keep_receipt_email"), ("orders", "0006_receipt_token_hash")


def stored_row_text(pk: int) -> str:
    """Every column of the order's row as the database holds it."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {Order._meta.db_table} WHERE id = %s", [pk])  # noqa: S608 - no user input
        return " ".join(str(value) for value in cursor.fetchone())


def test_the_paid_order_stores_only_the_hash_of_its_receipt_token(confirmed_order, kiosk_client):
    url = kiosk_client.get(f"/api/public/sessions/{confirmed_order.session.public_id}/order").json()["receipt_url"]
    token = url.rsplit("/r/", 1)[1]
    assert len(token) == 43
    assert token not in stored_row_text(confirmed_order.pk)
    stored = Order.objects.get(pk=confirmed_order.pk).receipt_token_hash
    assert stored == hashlib.sha256(token.encode()).hexdigest()
    assert Client().get(f"/r/{token}").status_code == 200
    assert Client().get(f"/r/{token}/qr.svg").status_code == 200
    assert Client().get(f"/r/{stored}").status_code == 404  # the stored value opens nothing
    # read again (a reloaded thank-you screen): the same address
    again = kiosk_client.get(f"/api/public/sessions/{confirmed_order.session.public_id}/order").json()
    assert again["receipt_url"] == url


@pytest.mark.django_db(transaction=True)
def test_the_data_migration_hashes_the_tokens_already_given(scratch_database, business):
    token = "an-address-printed-as-a-qr-code-before-xxxx"
    order = factories.OrderFactory(business=business, status="confirmed")
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()  # every app: going back also unapplied those built on orders
    try:
        executor.migrate([BEFORE])
        old_order = executor.loader.project_state([BEFORE]).apps.get_model("orders", "Order")
        old_order.objects.filter(pk=order.pk).update(receipt_token=token)

        MigrationExecutor(connection).migrate([AFTER])
        assert token not in stored_row_text(order.pk)
    finally:
        MigrationExecutor(connection).migrate(latest)
    assert Order.objects.get(pk=order.pk).receipt_token_hash == receipts.hash_token(token)
    assert Client().get(f"/r/{token}").status_code == 200  # the address given before still opens it
    # its address cannot be derived again: the kiosk reads no receipt_url for it rather than a wrong one
    assert receipts.receipt_path(Order.objects.get(pk=order.pk)) is None
