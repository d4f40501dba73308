"""The long-term evaluation mechanism (SDSI 6.2.3): key records, the four metrics, and the
promotion and deprecation rules."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any

from .config import DAY
from .config import OracleConfig

__all__ = ["LIVE", "Key", "Metrics", "decide", "type_matches"]

#: States in which a key is in the active patches (and so collides with a candidate of the same
#: name).
LIVE = frozenset({"experimental", "stable", "deprecated"})


def type_matches(value: Any, key_type: str) -> bool:
    """value_type_correctness: whether a payload's value conforms to the declared key_type."""
    if key_type == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if key_type == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    kinds: dict[str, type] = {"string": str, "boolean": bool, "array": list, "object": dict}
    return isinstance(value, kinds.get(key_type, object))


@dataclass
class Key:
    """A key introduced by a dynamic patch, and what the server saw of it."""

    name: str
    scenario: str
    client: str | None
    patch_id: str
    cluster: int
    definition: dict[str, Any]
    activated: float
    state: str = "experimental"
    changed: float = 0.0
    #: One entry per payload carrying the key: (at, client, type correct, aligned or None if
    #: unjudged).
    usage: list[tuple[float, str, bool, bool | None]] = field(default_factory=list)

    @property
    def key_type(self) -> str:
        return str(self.definition["key_type"])


@dataclass(frozen=True)
class Metrics:
    """The four metrics of 6.2.3 over the observation window; None where the ratio has no
    denominator."""

    payloads: int
    usage_frequency: float
    semantic_alignment_accuracy: float | None
    value_type_correctness: float | None
    client_adoption_rate: float | None

    @classmethod
    def of(
        cls, key: Key, now: float, payloads: int, receivers: int, config: OracleConfig
    ) -> Metrics:
        start = max(key.activated, now - config.observation_window_days * DAY)
        seen = [u for u in key.usage if start <= u[0] <= now]
        judged = [u[3] for u in seen if u[3] is not None]
        return cls(
            payloads=payloads,
            usage_frequency=len(seen) / payloads if payloads else 0.0,
            semantic_alignment_accuracy=sum(judged) / len(judged) if judged else None,
            value_type_correctness=sum(u[2] for u in seen) / len(seen) if seen else None,
            client_adoption_rate=(
                len({u[1] for u in seen if u[2]}) / receivers if receivers else None
            ),
        )

    def to_json(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 6)

        return {
            "payloads": self.payloads,
            "usage_frequency": r(self.usage_frequency),
            "semantic_alignment_accuracy": r(self.semantic_alignment_accuracy),
            "value_type_correctness": r(self.value_type_correctness),
            "client_adoption_rate": r(self.client_adoption_rate),
        }


def decide(metrics: Metrics, config: OracleConfig) -> str | None:
    """ "stable" (promotion), "deprecated", or None: neither rule holds, so the key stays
    experimental and is evaluated again after `reevaluation_days` (E-SDSI-6.2.3-NEITHER-RULE). A
    metric with no denominator satisfies neither rule."""
    usage, alignment, correct = (
        metrics.usage_frequency,
        metrics.semantic_alignment_accuracy,
        metrics.value_type_correctness,
    )
    if (
        usage >= config.promote_usage
        and alignment is not None
        and alignment >= config.promote_alignment
        and correct is not None
        and correct >= config.promote_type_correctness
    ):
        return "stable"
    if (
        usage < config.deprecate_usage
        or (alignment is not None and alignment < config.deprecate_alignment)
        or (correct is not None and correct < config.deprecate_type_correctness)
    ):
        return "deprecated"
    return None
