"""Billing's state changes, as in every app's services: processor onboarding (connect), send to
payment and back (payments), refunds, and verified processor events (processor_events)."""
