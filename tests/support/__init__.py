"""Helpers shared by the test folders (no tests here)."""
