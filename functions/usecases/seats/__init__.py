"""Seats and the game's course: joining, seat changes, pause and control, votes."""
