"""What seed_demo's users sign in with; the landing page shows them outside production."""

DEMO_PASSWORD = "demo-password-1"
DEMO_DOMAIN = "demo.test"  # seed_demo's users: admin@demo.test, owner@burgers.demo.test, ...
