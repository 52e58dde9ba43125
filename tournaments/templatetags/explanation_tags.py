"""Template helpers of a board's explanation (``Pairing.explanation``, tournaments.services.explanations): its
facts in the reader's language, each with the FIDE article that names it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.translation import gettext as _

from tournaments import selectors

register = template.Library()


def _sentences() -> dict[str, str]:
    """The sentence of each fact's code (tournaments.pairing.dutch_explain.ARTICLES), translated now."""
    return {
        "bracket": _("Paired in score bracket %(score)s, whose players all have that score."),
        "bracket_mdp": _("Paired in score bracket %(score)s: the players moved down to it (S1) are paired first."),
        "bracket_remainder": _("Paired in score bracket %(score)s, in its remainder, once the players moved down to it were paired."),
        "float_odd": _("%(who)s was left over in score bracket %(score)s, which had an odd number of players, and moved down."),
        "float_no_partner": _("%(who)s had no possible opponent in score bracket %(score)s (he had met them all, or both had to attack on the same side) and moved down."),
        "float_max_pairs": _("Score bracket %(score)s could make no more pairs without a rematch, so %(who)s moved down."),
        "float_completion": _("%(who)s moved down from score bracket %(score)s so that the rest of the round can be paired."),
        "float_limbo": _("%(who)s, moved down to score bracket %(score)s, could not be paired there either and moved on."),
        "upfloat": _("%(who)s (score %(score)s) plays a higher-scored opponent, %(other)s: an upfloat."),
        "first_candidate": _("%(who)s (S1 no. %(place)s) meets %(other)s (S2 no. %(to)s): the first candidate, nothing had to be changed."),
        "transposed": _("S2 was transposed: %(who)s (S1 no. %(place)s) meets %(other)s (S2 no. %(to)s)."),
        "exchanged": _("Players were exchanged between S1 and S2: %(who)s (S1 no. %(place)s) meets %(other)s (S2 no. %(to)s)."),
        "exchanged_player": _("Players were exchanged between S1 and S2: %(who)s changed subgroup to meet %(other)s."),
        "barred_rematch": _("The first candidate, %(other)s, had already played %(who)s."),
        "barred_avoid": _("The first candidate, %(other)s, must not meet %(who)s: the director asked so."),
        "barred_colour": _("The first candidate, %(other)s, and %(who)s must both attack on the same side."),
        "default_worse": _("The first candidate, %(other)s, would have broken %(criterion)s more than this pair does."),
        "default_elsewhere": _("The first candidate, %(other)s, was needed on another board so that the bracket as a whole meets the criteria best."),
        "c8": _("%(who)s or %(other)s ends with a first-attack difference beyond 2 (last round, topscorers)."),
        "c9": _("%(who)s or %(other)s attacks on the same side a third time running (last round, topscorers)."),
        "c10": _("%(who)s does not get the side he prefers (a mild preference)."),
        "c11": _("%(who)s does not get the side he strongly prefers."),
        "c12": _("%(who)s floats down again, as in the last round (score difference %(score)s)."),
        "c13": _("%(who)s floats up again, as in the last round (score difference %(score)s)."),
        "c14": _("%(who)s floats down as two rounds ago (score difference %(score)s)."),
        "c15": _("%(who)s floats up as two rounds ago (score difference %(score)s)."),
        "E.1": _("%(who)s attacks first: both get the side they prefer, or one has no preference."),
        "E.2": _("%(who)s attacks first: the stronger preference is granted."),
        "E.3": _("%(who)s attacks first: the sides alternate from the last round in which the two had different ones."),
        "E.4": _("%(who)s attacks first: the higher-ranked player's preference is granted."),
        "E.5": _("%(who)s attacks first: by the higher-ranked player's pairing number, odd or even."),
        "avoid_kept": _("%(who)s would have met %(other)s; they are kept apart as the director asked."),
        "avoid_floated": _("%(who)s meets an opponent with another score only because of an avoidance the director asked for."),
        "avoid_broken": _("%(who)s and %(other)s were to be kept apart, but no pairing of this round could do it."),
        "bye": _("%(who)s (score %(score)s) gets the bye: the field is odd and he was left over in the last bracket."),
        "bye_c2": _("Lower-scored players who had a bye or a forfeit win already could not take it: %(count)s."),
        "bye_completion": _("The bye could not go lower without leaving the rest of the round impossible to pair (lower-scored players who could have taken it: %(count)s)."),
    }  # fmt: skip


@register.filter
def pairing_reasons(explanation: Mapping[str, Any] | None) -> list[dict[str, str]]:
    """A board's facts as ``{"article", "text"}`` in the reader's language; facts of an unknown code are left out."""
    sentences = _sentences()
    result = []
    for fact in (explanation or {}).get("facts", []):
        code = fact.get("code", "")
        if code == "exchanged" and "place" not in fact:
            code = "exchanged_player"
        sentence = sentences.get(code)
        if sentence is None:
            continue
        value = fact.get("value")
        words = {
            "who": fact.get("who", ""), "other": fact.get("other", ""), "place": fact.get("place", ""),
            "to": fact.get("to", ""), "criterion": fact.get("criterion", ""),
            "score": selectors.shown(value), "count": selectors.shown(value),
        }  # fmt: skip
        result.append({"article": str(fact.get("article", "")), "text": sentence % words})
    return result


@register.simple_tag(takes_context=True)
def board_reasons(context: template.Context, line: selectors.PairingLine) -> list[dict[str, str]]:
    """A board's :func:`pairing_reasons` when the page asks for them (``explain``: the reader directs the
    tournament), else nothing; the explanation is not read then (other pages load the pairings without it)."""
    return pairing_reasons(line.pairing.explanation) if context.get("explain") else []
