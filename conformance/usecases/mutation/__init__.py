"""Machine-made mutants of the reference agents' answers, to measure how much of the space of wrong
answers each check catches: operators.py (the operators), middleware.py (the mutant in front of a
real agent), engine.py (record, plan, judge), equivalents.json (the mutants the drafts permit)."""

from .engine import CONFIGS
from .engine import Mutant
from .engine import Outcome
from .engine import equivalents
from .engine import judge
from .engine import plan
from .engine import record
from .operators import OPERATORS

__all__ = ["CONFIGS", "OPERATORS", "Mutant", "Outcome", "equivalents", "judge", "plan", "record"]
