"""The bench of bot accounts that sit at tables: a few for each level, each with a friendly name in both languages.

Several bots of one level at one table sit as different accounts (games.services.bot_account_for), so every
page that names players names each bot apart, and each bot account keeps a rating of its own. The first of each
level is the demo's bot of that level (manage.py load_demo), so its rating and games carry on; the others are
created the first time a table needs them. A name is looked up by the account's username in the reader's
language (accounts.models.User.public_name); the stored display name is the English one.
"""

from __future__ import annotations

from typing import Final, NamedTuple, cast

import re

from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.bots.levels import LEVELS


class BotPersona(NamedTuple):
    username: str
    name: Promise  # in the reader's language
    engine: str  # accounts.User.bot_engine: what the bot is, in words (accounts.models.BOT_ENGINE_NAMES)


def _bench(level: str, *people: tuple[str, Promise]) -> tuple[BotPersona, ...]:
    """A level's bots, each described by the bot its level plays (games.bots.LEVELS, the one table of levels)."""
    return tuple(BotPersona(username, name, LEVELS[level].bot) for username, name in people)


# Eight players sit at a 52-card table at most (games.engine.Rules.max_players): seven bots of one level beside
# a person need seven accounts. Random Rita, the first easy bot, keeps the random bot's description (her account's
# bot_engine); she plays at the easy level like the others.
BOT_BENCH: Final[dict[str, tuple[BotPersona, ...]]] = {
    "easy": (
        BotPersona("bot-random", _("Random Rita"), "random"),
        *_bench(
            "easy",
            ("bot-easy-lyosha", _("Lucky Lyosha")),
            ("bot-easy-mila", _("Merry Mila")),
            ("bot-easy-dima", _("Dreamy Dima")),
            ("bot-easy-tanya", _("Chatty Tanya")),
            ("bot-easy-styopa", _("Sunny Styopa")),
            ("bot-easy-yulya", _("Jolly Yulya")),
        ),
    ),
    "medium": _bench(
        "medium",
        ("bot-heuristic", _("Heuristic Hugo")),
        ("bot-medium-stas", _("Steady Stas")),
        ("bot-medium-kira", _("Careful Kira")),
        ("bot-medium-tolya", _("Thrifty Tolya")),
        ("bot-medium-nina", _("Nimble Nina")),
        ("bot-medium-pasha", _("Patient Pasha")),
        ("bot-medium-fedya", _("Cheerful Fedya")),
    ),
    "hard": _bench(
        "hard",
        ("bot-search", _("Search Sonya")),
        ("bot-hard-kostya", _("Clever Kostya")),
        ("bot-hard-sasha", _("Sharp Sasha")),
        ("bot-hard-vlad", _("Wily Vlad")),
        ("bot-hard-lena", _("Keen Lena")),
        ("bot-hard-bogdan", _("Bold Bogdan")),
        ("bot-hard-kolya", _("Quick Kolya")),
    ),
    "expert": _bench(
        "expert",
        ("bot-search-expert", _("Expert Evgeny")),
        ("bot-expert-marina", _("Master Marina")),
        ("bot-expert-valentin", _("Wise Valentin")),
        ("bot-expert-polina", _("Professor Polina")),
        ("bot-expert-grisha", _("Grandmaster Grisha")),
        ("bot-expert-lidia", _("Shrewd Lidia")),
        ("bot-expert-arkady", _("Calm Arkady")),
    ),
}

_BY_USERNAME: Final[dict[str, BotPersona]] = {
    persona.username: persona for bench in BOT_BENCH.values() for persona in bench
}


# A tournament may enter more bots of a level than the bench has: the bench repeats, the second round of names
# carrying "II", the third "III" ("Lucky Lyosha II", «Везучий Лёша II»), as usernames "bot-easy-lyosha-2".
_GENERATION = re.compile(r"^(?P<base>.+)-(?P<generation>[2-9]|[1-9][0-9])$")
_ROMAN = (("L", 50), ("XL", 40), ("X", 10), ("IX", 9), ("V", 5), ("IV", 4), ("I", 1))


def _roman(number: int) -> str:
    text = ""
    for letters, value in _ROMAN:
        while number >= value:
            text, number = text + letters, number - value
    return text


def _generation_persona(base: BotPersona, generation: int) -> BotPersona:
    name = cast(Promise, format_lazy("{} {}", base.name, _roman(generation)))  # lazy: the reader's language
    return BotPersona(f"{base.username}-{generation}", name, base.engine)


def bench_persona(level: str, index: int) -> BotPersona:
    """The level's ``index``-th bot (0 first): the bench's seven, then the bench again as "II", "III", ... up to
    99 generations; KeyError for an unknown level."""
    bench = BOT_BENCH[level]
    if index < len(bench):
        return bench[index]
    return _generation_persona(bench[index % len(bench)], index // len(bench) + 1)


def bot_persona(username: str) -> BotPersona | None:
    """The bench's persona of that bot account, or None (a tournament's own bot, a person)."""
    persona = _BY_USERNAME.get(username)
    if persona is not None:
        return persona
    match = _GENERATION.match(username)
    base = _BY_USERNAME.get(match.group("base")) if match else None
    if match is None or base is None:
        return None
    return _generation_persona(base, int(match.group("generation")))


def english_name(persona: BotPersona) -> str:
    """The name stored as the account's display name (admin, search): the English one."""
    from django.utils import translation

    with translation.override("en"):
        return str(persona.name)
