"""Benchmarks and the random-but-legal game player they share with the property tests.

Not part of the engine: ``engine/`` never imports from here.
"""
