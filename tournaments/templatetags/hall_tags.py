"""Template helpers of the hall screen, the printed sheets and the standings on a phone."""

from __future__ import annotations

from collections.abc import Sequence

from django import template

register = template.Library()


@register.filter
def labelled(values: Sequence[str], names: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each tie-break's label beside its value (``names`` as views._tiebreak_names gives them): the
    standings fold them into the entrant's cell on a phone."""
    return [(label, value) for (_, label), value in zip(names, values, strict=False)]
