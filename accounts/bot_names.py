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


class BotPersona(NamedTuple):
    username: str
    name: Promise  # in the reader's language
    engine: str  # accounts.User.bot_engine: what the bot is, in words (accounts.models.BOT_ENGINE_NAMES)


# Eight players sit at a 52-card table at most (games.engine.Rules.max_players): seven bots of one level beside
# a person need seven accounts.
BOT_BENCH: Final[dict[str, tuple[BotPersona, ...]]] = {
    "easy": (
        BotPersona("bot-random", _("Random Rita"), "random"),
        BotPersona("bot-easy-lyosha", _("Lucky Lyosha"), "easy"),
        BotPersona("bot-easy-mila", _("Merry Mila"), "easy"),
        BotPersona("bot-easy-dima", _("Dreamy Dima"), "easy"),
        BotPersona("bot-easy-tanya", _("Chatty Tanya"), "easy"),
        BotPersona("bot-easy-styopa", _("Sunny Styopa"), "easy"),
        BotPersona("bot-easy-yulya", _("Jolly Yulya"), "easy"),
    ),
    "medium": (
        BotPersona("bot-heuristic", _("Heuristic Hugo"), "heuristic"),
        BotPersona("bot-medium-stas", _("Steady Stas"), "heuristic"),
        BotPersona("bot-medium-kira", _("Careful Kira"), "heuristic"),
        BotPersona("bot-medium-tolya", _("Thrifty Tolya"), "heuristic"),
        BotPersona("bot-medium-nina", _("Nimble Nina"), "heuristic"),
        BotPersona("bot-medium-pasha", _("Patient Pasha"), "heuristic"),
        BotPersona("bot-medium-fedya", _("Cheerful Fedya"), "heuristic"),
    ),
    "hard": (
        BotPersona("bot-search", _("Search Sonya"), "search"),
        BotPersona("bot-hard-kostya", _("Clever Kostya"), "search"),
        BotPersona("bot-hard-sasha", _("Sharp Sasha"), "search"),
        BotPersona("bot-hard-vlad", _("Wily Vlad"), "search"),
        BotPersona("bot-hard-lena", _("Keen Lena"), "search"),
        BotPersona("bot-hard-bogdan", _("Bold Bogdan"), "search"),
        BotPersona("bot-hard-kolya", _("Quick Kolya"), "search"),
    ),
    "expert": (
        BotPersona("bot-search-expert", _("Expert Evgeny"), "search"),
        BotPersona("bot-expert-marina", _("Master Marina"), "search"),
        BotPersona("bot-expert-valentin", _("Wise Valentin"), "search"),
        BotPersona("bot-expert-polina", _("Professor Polina"), "search"),
        BotPersona("bot-expert-grisha", _("Grandmaster Grisha"), "search"),
        BotPersona("bot-expert-lidia", _("Shrewd Lidia"), "search"),
        BotPersona("bot-expert-arkady", _("Calm Arkady"), "search"),
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
