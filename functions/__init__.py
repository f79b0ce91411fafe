"""Convoy's Lambda side: use cases, ports, schemas and handlers (shared/ARCHITECTURE.md §1)."""
