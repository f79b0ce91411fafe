"""Creating games of every kind: the GameKind seam, creation and import."""
