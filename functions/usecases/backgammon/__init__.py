"""Backgammon, the second kind of game (issue 32): its use cases over the pure rules."""
