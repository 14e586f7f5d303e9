"""The agent dashboard's HTML shell at /agent/ (the app itself is static code in static/agent/)."""
