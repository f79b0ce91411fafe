"""The notifier Lambda's entry point (template.yaml ``NotifierFunction``)."""

from __future__ import annotations

from composition import wiring
from functions import snapstart
from functions.notifier.handler import make_handler

handler = make_handler(wiring.notifier_dependencies)
snapstart.prime(wiring.prime_clients, wiring.notifier_dependencies, renew=(wiring.renew_clients,))
