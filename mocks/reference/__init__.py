"""The reference agents: real servers that keep every rule of the three drafts (and, given a named
fault from mocks/faults.py, break exactly one). woa_host.py serves them all under one WoA document.
"""
