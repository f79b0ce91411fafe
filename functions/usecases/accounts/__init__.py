"""Accounts (issue 15): signing in, profiles, and a user's games."""
