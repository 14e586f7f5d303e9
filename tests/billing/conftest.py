"""The card reader's fixtures (tests/billing/test_reader_payments.py), shared with the other reader
tests of this folder."""

from tests.billing.test_reader_payments import alone, demo_billing, on_commit, reader  # noqa: F401
