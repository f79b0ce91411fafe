"""A DAIDE bridge: AI bots speaking the DAIDE client-server protocol play Convoy games.

``python -m daide_bridge --api URL --game GAME_ID`` (daide_bridge/README.md). The protocol
modules (``tokens``, ``messages``, ``wire``, ``grammar``) are pure and standard-library
only; ``board`` reads the engine's map data; ``rest`` is Convoy's public REST API;
``server`` is the asyncio TCP server that joins them.
"""
