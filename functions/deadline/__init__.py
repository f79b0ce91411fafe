"""Lambda entry point package; see handler.py."""
