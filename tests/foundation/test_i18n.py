"""Russian and English: the browser's choice, the language switch, and translations that work without gettext."""

from __future__ import annotations

import html
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import BOT_ENGINE_NAMES, BotLevel, User
from accounts.services import bot_account_ensure, user_sign_up
from games.bots import BOTS
from tests.processes import PROJECT_DIR

pytestmark = pytest.mark.django_db

PO_FILES = sorted(PROJECT_DIR.glob("locale/*/LC_MESSAGES/*.po"))


def _text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


def test_pages_are_in_english_by_default(client: Client) -> None:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert '<html lang="en">' in response.content.decode()
    text = _text(response.content)
    for label in ("Play", "Tournaments", "Ratings", "Rules", "Log in", "Sign up"):
        assert label in text


def test_browsers_that_ask_for_russian_get_russian(client: Client) -> None:
    response = client.get(reverse("home"), headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
    assert '<html lang="ru">' in response.content.decode()
    text = _text(response.content)
    for label in ("Играть", "Турниры", "Рейтинги", "Правила", "Войти", "Регистрация"):
        assert label in text
    assert "Sign up" not in text


def test_language_switch_changes_the_language_of_later_pages(client: Client) -> None:
    response = client.post(reverse("language-switch"), {"language": "ru", "next": reverse("rules")})
    assert response.status_code == 302
    assert response["Location"] == reverse("rules")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert "Правила игры в дурака" in _text(client.get(reverse("rules")).content)

    client.post(reverse("language-switch"), {"language": "en", "next": reverse("rules")})
    assert "Rules of Durak" in _text(client.get(reverse("rules")).content)


def test_language_switch_refuses_a_foreign_next_url(client: Client) -> None:
    response = client.post(reverse("language-switch"), {"language": "ru", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_language_switch_remembers_the_choice_in_the_profile(client: Client) -> None:
    user = user_sign_up(username="petya", email="p@example.com", password="a-Long-passw0rd", preferred_language="en")
    client.force_login(user)
    client.post(reverse("language-switch"), {"language": "ru", "next": "/"})
    assert User.objects.get(pk=user.pk).preferred_language == "ru"


RULES_TOPICS = {
    "en": ("Podkidnoy", "Perevodnoy", "showing a trump", "two neighbours", "first bout limit 5", "two against two",
           "Epaulettes", "mukhlyozh", "15%", "chips", "Aktobe", "jokers"),
    "ru": ("Подкидной", "Переводной", "показом козыря", "двое его соседей", "до пяти карт", "двое на двое",
           "Погоны", "мухлеж", "15%", "фишки", "Актобе", "джокер"),
}  # fmt: skip


@pytest.mark.parametrize("language", ["en", "ru"])
def test_rules_page_explains_every_variant_in_both_languages(client: Client, language: str) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    text = _text(client.get(reverse("rules")).content)
    for topic in RULES_TOPICS[language]:
        assert topic in text, f"{language} rules page does not mention {topic!r}"


def test_every_page_of_the_layout_renders_in_russian_without_english_left(client: Client) -> None:
    """Spot-check a page with forms: labels, buttons and help texts all come from the catalog."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    text = _text(client.get(reverse("accounts:sign-up")).content)
    for english in ("Sign up", "Log in", "Language", "E-mail", "Create my account", "Already have an account"):
        assert english not in text


def _catalog(entries: list[polib.POEntry] | polib.MOFile) -> dict[tuple[str | None, str], str]:
    return {(entry.msgctxt, entry.msgid): entry.msgstr for entry in entries if entry.msgid}


@pytest.mark.parametrize("po_path", PO_FILES, ids=lambda path: str(path.relative_to(PROJECT_DIR)))
def test_committed_mo_file_matches_its_po_file(po_path: Path) -> None:
    """The .mo is committed so no machine needs gettext; it must hold exactly what the .po says."""
    mo_path = po_path.with_suffix(".mo")
    assert mo_path.exists(), f"{mo_path} is missing: run `make messages`"
    po = polib.pofile(str(po_path))
    mo = polib.mofile(str(mo_path))
    assert _catalog(mo) == _catalog(po.translated_entries()), f"{mo_path} is stale: run `make messages`"


@pytest.mark.parametrize("po_path", PO_FILES, ids=lambda path: str(path.relative_to(PROJECT_DIR)))
def test_every_string_is_translated(po_path: Path) -> None:
    po = polib.pofile(str(po_path))
    untranslated = [entry.msgid for entry in po.untranslated_entries() + po.fuzzy_entries()]
    assert untranslated == []


def test_there_is_a_russian_catalog() -> None:
    assert PROJECT_DIR / "locale/ru/LC_MESSAGES/django.po" in PO_FILES


_TEMPLATE_STRING = re.compile(r"""{%\s*(?:translate|trans)\s+(["'])(.+?)\1""")
_PYTHON_STRING = re.compile(r"""\b_\(\s*(["'])(.+?)(?<!\\)\1\s*\)""")
_NOT_INTERFACE = ("games/engine/", "games/bots/", "tournaments/pairing/", "ratings/elo.py")


def _marked_strings() -> set[str]:
    found: set[str] = set()
    for template in (PROJECT_DIR / "templates").rglob("*.html"):
        found.update(match.group(2) for match in _TEMPLATE_STRING.finditer(template.read_text()))
    for app in ("durak_site", "accounts", "games", "tournaments", "ratings"):
        for source in (PROJECT_DIR / app).rglob("*.py"):
            relative = source.relative_to(PROJECT_DIR).as_posix()
            if "/migrations/" in relative or relative.startswith(_NOT_INTERFACE):
                continue
            found.update(match.group(2) for match in _PYTHON_STRING.finditer(source.read_text()))
    return found


def test_every_marked_string_is_in_the_russian_catalog() -> None:
    """A string marked for translation but missing from the .po would show in English on a Russian page."""
    catalog = {entry.msgid for entry in polib.pofile(str(PROJECT_DIR / "locale/ru/LC_MESSAGES/django.po"))}
    missing = sorted(_marked_strings() - catalog)
    assert missing == [], "run `make messages` and translate: " + ", ".join(missing)


def test_the_home_page_names_each_bot_engine_in_the_readers_language(client: Client) -> None:
    assert set(BOT_ENGINE_NAMES) == set(BOTS)
    bot_account_ensure(username="bot-hugo", display_name="Heuristic Hugo", engine="heuristic", level=BotLevel.MEDIUM)
    bot_account_ensure(username="bot-sergei", display_name="Searching Sergei", engine="search", level=BotLevel.EXPERT)
    english = html.unescape(_text(client.get(reverse("home")).content))
    assert "Heuristic Hugo rules of thumb · Medium" in english
    assert "Searching Sergei tree search · Expert" in english
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    russian = html.unescape(_text(client.get(reverse("home")).content))
    assert "Heuristic Hugo эвристика · Средний" in russian
    assert "Searching Sergei поиск по дереву · Эксперт" in russian
    assert " heuristic " not in russian and " search " not in russian
