"""Reference implementations the suite certifies, and named faults that each break one rule.

woa_host   a WoA host (Appendix B's summarizer) as a Starlette app
serve      runs an app on loopback under uvicorn, over HTTPS with a throw-away CA
"""
