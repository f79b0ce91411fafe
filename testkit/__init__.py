"""What the tests and the benchmarks share (issue 30 item 4): in-memory fakes of the ports, the
in-process API, opening orders, the DATC cases. Never shipped (pyproject.toml does not list it);
it may import the product, and bench/ imports it instead of tests/."""
