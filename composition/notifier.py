"""The notifier Lambda's entry point (template.yaml ``NotifierFunction``)."""

from __future__ import annotations

from composition import wiring
from composition.factories.notifier import notifier_dependencies
from functions import snapstart
from functions.notifier.handler import make_handler

handler = make_handler(notifier_dependencies)
snapstart.prime(wiring.prime_clients, notifier_dependencies, renew=(wiring.renew_clients,))
