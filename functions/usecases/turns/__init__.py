"""Orders and turns: entering orders, the views of a phase, deadlines and reminders, processing a turn,
endings, exports and replays."""
