"""Help screens without type tags: typer prints `<str>`, `<bool>` or `<float range>` beside every
option, which says nothing the option's help does not; only a choice's values
(`woa|sdsi|aci|all`) are kept."""

from __future__ import annotations

from typing import Any

import typer.core

__all__ = ["quiet_type_tags"]


def _values_only(parameter: Any, ctx: Any) -> str | None:
    if parameter.metavar is not None:
        return str(parameter.metavar)
    if parameter.type_descriptor.is_choice:
        return str(parameter.display_type(ctx)).strip("<>")
    return None


def quiet_type_tags() -> None:
    """Patch typer's options and arguments to show no type tag in help but a choice's values."""
    typer.core.TyperOption.display_type_rich = _values_only  # type: ignore[method-assign, assignment]
    typer.core.TyperArgument.display_type_rich = _values_only  # type: ignore[method-assign, assignment]
