"""The reference kiosk app's HTML shell at /kiosk/ (the app itself is static code in static/kiosk/)."""
