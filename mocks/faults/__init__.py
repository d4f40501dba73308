"""Named faults: each makes a reference agent break exactly one rule, and is named after it.

catalogue.py holds every fault of the reference host (`FAULTS`); woa_client.py those of the
reference WoA client, whose command imports only them (so that it starts quickly: the suite runs
it once per invocation).
"""
