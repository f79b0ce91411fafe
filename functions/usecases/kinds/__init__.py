"""The registry of game kinds and what reads a game whatever its kind: the player's view, the lobby."""
