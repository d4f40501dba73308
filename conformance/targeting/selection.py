"""Which requirements a run judges: `--level`, `--requirement`, `--section` and `--exclude`.

A requirement left out is reported as `skip` "not selected" with the option that left it out,
never as a pass and never silently dropped: the report still lists every requirement of the drafts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..requirements import LEVELS
from ..requirements import Requirement
from ..requirements import catalogue

__all__ = ["Selection", "UnknownSelection"]


class UnknownSelection(ValueError):
    """An ID, section or level that names nothing in the catalogue (a usage error)."""


@dataclass(frozen=True)
class Selection:
    levels: tuple[str, ...] = ()  # MUST, SHOULD, MAY (judged levels); empty: every level
    requirements: tuple[str, ...] = ()  # exact IDs; empty: every requirement
    sections: tuple[str, ...] = ()  # "5.2" selects 5.2 and 5.2.1; empty: every section
    excluded: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown = [i for i in (*self.requirements, *self.excluded) if i not in catalogue()]
        if unknown:
            raise UnknownSelection(
                f"no requirement has the ID {', '.join(unknown)} (`agent-conformance requirements`"
                " lists them)"
            )
        levels = [level for level in self.levels if level not in LEVELS]
        if levels:
            raise UnknownSelection(
                f"unknown level {', '.join(levels)}; choose from must, should, may"
            )
        sections = {r.section for r in catalogue()}
        missing = [s for s in self.sections if not any(_within(s, known) for known in sections)]
        if missing:
            raise UnknownSelection(f"no requirement is in section {', '.join(missing)}")

    @property
    def everything(self) -> bool:
        return not (self.levels or self.requirements or self.sections or self.excluded)

    def left_out(self, requirement: Requirement, *, strict: bool = False) -> str | None:
        """Why `requirement` is not judged in this run, or None when it is."""
        if requirement.id in self.excluded:
            return "not selected: --exclude"
        if self.requirements and requirement.id not in self.requirements:
            return "not selected: --requirement names others"
        if self.sections and not any(_within(s, requirement.section) for s in self.sections):
            return f"not selected: --section {' '.join(self.sections)}"
        if self.levels and requirement.level_in(strict) not in self.levels:
            return f"not selected: --level {' '.join(level.lower() for level in self.levels)}"
        return None

    def label(self) -> str:
        """What the selection judges, for the level's label: "" when everything, else "MUST
        selected", "sections 4, 5.2 selected", "3 requirements selected", "2 excluded" (joined by
        "; ")."""
        parts = []
        if self.levels:
            parts.append(f"{', '.join(self.levels)} selected")
        if self.sections:
            parts.append(
                f"section{'s' if len(self.sections) > 1 else ''} {', '.join(self.sections)}"
                " selected"
            )
        if self.requirements:
            parts.append(
                f"{len(self.requirements)} requirement{'s' if len(self.requirements) > 1 else ''}"
                " selected"
            )
        if self.excluded:
            parts.append(f"{len(self.excluded)} excluded")
        return "; ".join(parts)

    def recorded(self) -> dict[str, list[str]]:
        return {
            "levels": list(self.levels),
            "requirements": list(self.requirements),
            "sections": list(self.sections),
            "excluded": list(self.excluded),
        }

    @classmethod
    def from_recorded(cls, recorded: dict[str, list[str]]) -> Selection:
        """The selection `recorded()` wrote."""
        return cls(
            tuple(recorded.get("levels", ())),
            tuple(recorded.get("requirements", ())),
            tuple(recorded.get("sections", ())),
            tuple(recorded.get("excluded", ())),
        )


def _within(selected: str, section: str) -> bool:
    return section == selected or section.startswith(selected + ".")
