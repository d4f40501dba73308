"""Machine-made mutants of the reference agents' answers, to measure how much of the space of wrong
answers each check catches: operators.py (the operators), middleware.py (the mutant in front of a
real agent), engine.py (record, plan, judge), equivalents.json (the mutants the drafts permit), and
variations.py (the changes they allow, which every check must pass)."""

from .engine import CONFIGS
from .engine import Mutant
from .engine import Outcome
from .engine import UncleanBaseline
from .engine import Varied
from .engine import equivalents
from .engine import judge
from .engine import plan
from .engine import plan_client_variants
from .engine import plan_variants
from .engine import plan_variations
from .engine import record
from .engine import sampled
from .engine import vary
from .engine import vary_agent
from .engine import vary_client
from .operators import OPERATORS
from .variations import VARIATIONS

__all__ = [
    "CONFIGS",
    "OPERATORS",
    "VARIATIONS",
    "Mutant",
    "Outcome",
    "UncleanBaseline",
    "Varied",
    "equivalents",
    "judge",
    "plan",
    "plan_client_variants",
    "plan_variants",
    "plan_variations",
    "record",
    "sampled",
    "vary",
    "vary_agent",
    "vary_client",
]
