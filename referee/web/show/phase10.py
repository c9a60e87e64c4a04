"""Phase 10's phases as its rules page lists them, from the engine's own table of phases."""

from __future__ import annotations

from referee.phase10 import EVEN, PHASES, Phase10Options, phase_reason
from referee.web.show.i18n import reason_text


def phase_list(phases: str | None = None) -> list[tuple[int, str]]:
    """Each phase played with the ``phases`` option (``all`` or ``even``), in words."""
    listed = Phase10Options(phases=EVEN if phases == EVEN else "all").phase_list
    return [(phase, reason_text(phase_reason(phase))) for phase in listed if phase in PHASES]
