"""Pydantic models for the edges (HTTP requests and responses). Use cases never see them."""
