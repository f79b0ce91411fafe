"""The composition root (issue 30 item 2): builds the adapters (infra) and hands them to the
handlers (functions); the Lambda entry points live here, one module per function, so every
import of the product points down: composition -> functions handlers -> use cases -> ports,
and composition -> infra -> ports."""
