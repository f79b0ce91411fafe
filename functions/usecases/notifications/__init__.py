"""The game's notification targets (webhooks, Discord, Telegram) and the outbox's delivery to them."""
