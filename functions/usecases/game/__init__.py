"""The game record: reading and decoding it once (record), its events and outbox (journal), times and
deadline grids, scores, phases of its history, its expiry and lifecycle settings."""
