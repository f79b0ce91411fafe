"""Reaching players themselves (issue 33): live updates, personal notices, mail, push, press batches,
the Telegram bot."""
