"""Press between the powers: its rules and the messages, channels and ledgers."""
