"""Use cases: one module per intent or query. No boto3, no event shapes: they take ports."""
