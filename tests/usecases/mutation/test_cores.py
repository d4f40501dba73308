"""Mutants judged on every core (usecases/mutation/cores.py): the outcomes of worker processes are
those of this process alone, in the order given, and a defect in a worker is raised here."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest

from conformance.usecases.mutation import equivalents
from conformance.usecases.mutation import judge
from conformance.usecases.mutation import plan
from conformance.usecases.mutation import record
from conformance.usecases.mutation.cores import Cores


@dataclass
class Said:
    verdict: str


async def _slow_echo(value: int) -> Said:
    await asyncio.sleep(0.01 * (value % 3))  # finished out of order
    if value < 0:
        raise ValueError(f"cannot judge {value}")
    return Said(f"echo {value}")


async def test_workers_give_what_this_process_gives_in_the_order_given() -> None:
    works = [(_slow_echo, (n,)) for n in range(30)]
    seen: list[str] = []
    with Cores(2) as cores:
        spread = await cores.judged(works, seen.append)
    with Cores(1) as cores:
        alone = await cores.judged(works, lambda verdict: None)
    assert spread == alone == [Said(f"echo {n}") for n in range(30)]
    assert sorted(seen) == sorted(s.verdict for s in alone)


async def test_a_defect_in_a_worker_is_raised_here() -> None:
    with pytest.raises(RuntimeError, match="ValueError: cannot judge -1"), Cores(2) as cores:
        await cores.judged([(_slow_echo, (1,)), (_slow_echo, (-1,))], lambda verdict: None)


async def test_mutants_judged_by_workers_are_judged_as_here() -> None:
    baselines, answers = await record()
    mutants = [m for m in plan(answers) if m.draft == "woa"][:12]
    works = [(judge, (m, baselines[m.config], equivalents())) for m in mutants]
    with Cores(2) as cores:
        spread = await cores.judged(works, lambda verdict: None)
    with Cores(1) as cores:
        alone = await cores.judged(works, lambda verdict: None)
    assert spread == alone
