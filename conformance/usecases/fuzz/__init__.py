"""`agent-conformance fuzz`: an OpenAPI document built from a host's WoA document, fuzzed by
schemathesis."""
