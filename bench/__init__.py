"""Benchmarks of the suite against their floors (python -m bench, bench.floor, bench.fleet)."""
