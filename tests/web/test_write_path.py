"""The path of a write, followed call by call: a correction of a past round, from the round
form's POST to the commit, stays short (the view builds a value, the door carries it out).

What is counted (``route``): the *spine* is the chain of frames on the call stack at the
moment :func:`referee.web.store.work.commit` is called, from the view function
(``rounds.edit``) down to ``commit``.  Every call a frame of the spine made, before the
commit, into a function of *another* referee module is a step of the route, in the order
the calls were made; the route starts at the view's module, and steps into the module it
is already in (two calls in a row into the same module) are one stay.  Frames outside
``referee`` (the standard library, Flask, Jinja, WTForms, SQLAlchemy) are transparent: a
call's caller is the nearest referee frame below it.  Calls made by frames that returned
before the commit (what a helper does inside) are not steps: the route is the top-level
path of the write, what each layer on the way to the commit hands over and to whom.

``passes``: the route's moves from one module to another; ``returns``: the moves into a
module the route had already left.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any

import pytest

from .helpers import new_match, new_table, save_round, text
from .pageform import as_posted

THREE = ["Budi", "Siti", "Andi"]
VIEW = ("referee.web.views.rounds", "edit")
COMMIT = ("referee.web.store.work", "commit")


@dataclass(frozen=True)
class Route:
    modules: tuple[str, ...]

    @property
    def passes(self) -> int:
        return len(self.modules) - 1

    @property
    def returns(self) -> int:
        return sum(module in self.modules[:at] for at, module in enumerate(self.modules))


def _module(frame: FrameType) -> str:
    return str(frame.f_globals.get("__name__", ""))


def _referee_caller(frame: FrameType) -> FrameType | None:
    caller = frame.f_back
    while caller is not None and not _module(caller).startswith("referee."):
        caller = caller.f_back
    return caller


def follow(request: Callable[[], Any]) -> tuple[Any, Route]:
    """Run ``request`` under a profiler and return its answer and the route of its write."""
    steps: list[tuple[FrameType, str]] = []
    spine: list[FrameType] = []

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call" or spine:
            return
        module = _module(frame)
        if not module.startswith("referee."):
            return
        caller = _referee_caller(frame)
        if caller is None or _module(caller) == module:
            return
        steps.append((caller, module))
        if (module, frame.f_code.co_name) == COMMIT:
            below: FrameType | None = frame
            while below is not None and (_module(below), below.f_code.co_name) != VIEW:
                spine.append(below)
                below = below.f_back
            if below is not None:
                spine.append(below)

    sys.setprofile(profile)
    try:
        answer = request()
    finally:
        sys.setprofile(None)
    assert spine, "the request committed nothing"
    assert (_module(spine[-1]), spine[-1].f_code.co_name) == VIEW, "the commit is not the view's"
    modules = [VIEW[0]]
    for caller, module in steps:
        if any(caller is frame for frame in spine) and module != modules[-1]:
            modules.append(module)
    return answer, Route(tuple(modules))


def test_the_route_counts_moves_and_returns() -> None:
    route = Route(("views.rounds", "store.door", "play.roundwrites", "store.door", "store.work"))
    assert (route.passes, route.returns) == (4, 1)


@pytest.fixture
def correction(client):
    """A match of three with two rounds saved, and round 1's correction form as posted."""
    table = new_table(client, players=", ".join(THREE))
    match = new_match(client, table, "remi", THREE, target=200)
    for hand in ("5H", "7C"):
        saved = save_round(client, match, THREE, {"Siti": hand, "Andi": "6H"}, player="Budi")
        assert saved.status_code == 302
    edit = match + "rounds/1/edit"
    return match, edit, as_posted(client.get(edit).text, hand_1="5H 9D")


def test_a_correction_of_a_past_round_passes_few_modules_on_its_way_to_the_commit(
    client, correction
) -> None:
    match, edit, posted = correction
    answer, route = follow(lambda: client.submit(edit, posted, fresh=False))
    assert answer.status_code == 302
    assert answer.headers["Location"].endswith(match.split("/t/", 1)[1])
    assert "5H 9D" in text(client.get(match + "rounds/1/edit"))  # the correction landed
    assert route.passes <= 8, route.modules
    assert route.returns <= 2, route.modules
