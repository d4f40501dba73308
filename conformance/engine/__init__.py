"""The engine: a run judges every selected requirement through the registered checks, in lanes, and
hands each result to the handlers; the gate turns its summary into the exit code."""
