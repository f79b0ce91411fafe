"""The REST API Lambda's entry point (template.yaml ``ApiFunction``): the handler of
functions/api/handler.py over the services this root builds.

SnapStart (functions/snapstart.py): the AWS clients are built before the snapshot and their
connections renewed after each restore; random is reseeded there too.
"""

from __future__ import annotations

from composition import wiring

# the areas behind the API's lazy adapters (each provides its own to services() when imported)
from composition.factories import accounts, community, reach, telegram, tokens  # noqa: F401
from functions import snapstart
from functions.api import priming, services
from functions.api.handler import lambda_handler, openapi_document

__all__ = ["lambda_handler"]

services.install(wiring.services)
snapstart.prime(wiring.prime_clients, snapstart.warm_engine, openapi_document,
                priming.warm_requests(lambda_handler), renew=(wiring.renew_clients,))
