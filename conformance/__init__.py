"""agent-conformance: certify agents against the SDSI, WoA and ACI Internet-Drafts.

Data flows target -> binding -> checks -> results (as events) -> report writers; see
ARCHITECTURE.md at the project's root.
"""

__version__ = "0.1.0"
