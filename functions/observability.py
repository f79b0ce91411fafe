"""Logging: one Powertools Logger per service; the API injects the correlation id."""

from __future__ import annotations

from aws_lambda_powertools import Logger

SERVICE = "convoy"


def get_logger() -> Logger:
    return Logger(service=SERVICE)
