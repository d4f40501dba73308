"""The oracle's parameters (SDSI 6.2). Defaults are the draft's examples; where the draft is vague,
the default is the errata register's interpretation and the member names it."""

from __future__ import annotations

from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
from typing import Any
from typing import Literal

__all__ = ["OracleConfig"]

DAY = 86400.0
HOUR = 3600.0


@dataclass(frozen=True)
class OracleConfig:
    # 6.2.1 Semantic Vector Clustering (E-SDSI-6.2.1-CLUSTER-LEADER)
    similarity_threshold: float = 0.85
    # 6.2.1 Heat Decay Counting
    heat_increment: float = 1.0
    half_life_hours: float = 24.0
    # 6.2.1 Threshold-Based Triggering (E-SDSI-6.2.1-EXCEEDS, E-SDSI-6.2.1-WINDOW)
    heat_threshold: float = 50.0
    heat_comparison: Literal["gt", "ge"] = "gt"
    min_distinct_clients: int = 5
    min_occurrences: int = 10
    occurrence_window_days: float = 7.0
    occurrences_count: Literal["requests", "fragments"] = "requests"
    # 6.2.1 "separate DSP instances per scenario or per client-agent cohort"
    cohort: Literal["scenario", "client"] = "scenario"
    # A server's bounds (none by default): a pool founds no cluster past `max_clusters`, and no
    # pool (a cohort's DSP instance) is made past `max_cohorts`; a fragment either would need is
    # not pooled. A long-lived server's memory stays bounded whatever its clients send.
    max_clusters: int | None = None
    max_cohorts: int | None = None
    # 6.2.2 Patch Packaging: expiration = timestamp + patch_ttl_days
    patch_ttl_days: float = 30.0
    # 6.2.3 Long-Term Evaluation Mechanism
    trial_days: float = 7.0
    observation_window_days: float = 30.0
    reevaluation_days: float = 1.0
    promote_usage: float = 0.15
    promote_alignment: float = 0.80
    promote_type_correctness: float = 0.90
    deprecate_usage: float = 0.05
    deprecate_alignment: float = 0.60
    deprecate_type_correctness: float = 0.70
    grace_days: float = 14.0
    compatibility_window_days: float = 30.0
    max_experimental_keys: int = 10
    # E-SDSI-6.2.3-ALIGNMENT-JUDGE: "explicit" counts only payload judgements; "type" also judges an
    # unjudged value aligned when it has the declared key_type.
    alignment_judge: Literal["explicit", "type"] = "type"
    # The base templates the patches extend, by scenario: {"schema_id", "keys": [...]}.
    base_schemas: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> OracleConfig:
        """The configuration from a trace's `config` object. A few other spellings of the lifecycle
        parameters are taken for the names here; any other unknown member is an error that lists
        the names known (a misspelt parameter never goes silently unused)."""
        data = {ALIASES.get(k, k): v for k, v in (data or {}).items()}
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(
                f"unknown config member(s): {', '.join(unknown)} (known:"
                f" {', '.join(sorted(names))})"
            )
        config = cls(**data)
        config.validate()
        return config

    def validate(self) -> None:
        checks = {
            "similarity_threshold must be in [-1, 1]": -1.0 <= self.similarity_threshold <= 1.0,
            "heat_increment must be > 0": self.heat_increment > 0,
            "half_life_hours must be > 0": self.half_life_hours > 0,
            "heat_threshold must be >= 0": self.heat_threshold >= 0,
            "heat_comparison must be gt or ge": self.heat_comparison in ("gt", "ge"),
            "min_distinct_clients must be >= 1": self.min_distinct_clients >= 1,
            "min_occurrences must be >= 1": self.min_occurrences >= 1,
            "occurrence_window_days must be > 0": self.occurrence_window_days > 0,
            "occurrences_count must be requests or fragments": (
                self.occurrences_count in ("requests", "fragments")
            ),
            "cohort must be scenario or client": self.cohort in ("scenario", "client"),
            "max_clusters and max_cohorts must be >= 1 when given": all(
                bound is None or (isinstance(bound, int) and bound >= 1)
                for bound in (self.max_clusters, self.max_cohorts)
            ),
            "max_experimental_keys must be >= 1": self.max_experimental_keys >= 1,
            "alignment_judge must be explicit or type": (
                self.alignment_judge in ("explicit", "type")
            ),
            "day counts must be > 0": (
                min(
                    self.patch_ttl_days,
                    self.trial_days,
                    self.observation_window_days,
                    self.reevaluation_days,
                    self.grace_days,
                    self.compatibility_window_days,
                )
                > 0
            ),
        }
        failed = [message for message, ok in checks.items() if not ok]
        if failed:
            raise ValueError("; ".join(failed))

    def to_json(self) -> dict[str, Any]:
        """Every parameter; the bounds only when given (traces written before them stay equal)."""
        return {
            k: v
            for k, v in asdict(self).items()
            if not (k in ("max_clusters", "max_cohorts") and v is None)
        }

    @property
    def half_life(self) -> float:
        return self.half_life_hours * HOUR

    @property
    def window(self) -> float:
        return self.occurrence_window_days * DAY

    def exceeds(self, heat: float) -> bool:
        """Whether `heat` exceeds the evolution threshold. Heat is computed in floating point in two
        ways (online and batched); a tolerance of 1e-9 units makes both agree, so equality at the
        threshold is equality within 1e-9 (E-SDSI-6.2.1-EXCEEDS)."""
        if self.heat_comparison == "gt":
            return heat > self.heat_threshold + TOLERANCE
        return heat >= self.heat_threshold - TOLERANCE


TOLERANCE = 1e-9
#: Other names a trace may give a parameter.
ALIASES = {
    "trial_period_days": "trial_days",
    "grace_period_days": "grace_days",
    "observation_days": "observation_window_days",
    "backward_compatibility_window_days": "compatibility_window_days",
    "backward_compatibility_days": "compatibility_window_days",
    "compatibility_days": "compatibility_window_days",
    "max_active_experimental_keys": "max_experimental_keys",
    "window_days": "occurrence_window_days",
    "half_life": "half_life_hours",
}
