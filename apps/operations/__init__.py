"""The operators' surface: the Prometheus scrape at /metrics and the figures it reads from the
apps (health and readiness, which read no app, are apps/api/health.py)."""
