"""The court cards in the reader's language, in the log lines and in the page's strings: J, Q, K, A in English,
В, Д, К, Т in Russian (the Russian table's letters: валет, дама, король, туз)."""

from __future__ import annotations

from django.utils import translation

from games.logtext import card_text, log_lines
from games.views import client_strings

ENTRIES = [
    {"seq": 0, "seat": 0, "action": {"type": "attack", "cards": ["QS", "QH"]}},
    {"seq": 1, "seat": 1, "action": {"type": "cover", "attack": "QS", "card": "AS"}},
    {"seq": 2, "seat": 1, "action": {"type": "cover", "attack": "QH", "card": "KH"}},
    {"seq": 3, "seat": 0, "action": {"type": "throw", "cards": ["JD", "10C"]}},
]


def test_the_log_writes_the_court_cards_in_russian_letters() -> None:
    lines = [line["text"] for line in log_lines(ENTRIES, ["Анна", "Борис"], "ru")]
    assert lines[0].endswith("Д♠ Д♥")
    assert "Д♠" in lines[1] and "Т♠" in lines[1]
    assert "Д♥" in lines[2] and "К♥" in lines[2]
    assert lines[3].endswith("В♦ 10♣")
    assert not any(letter in " ".join(lines) for letter in ("Q♠", "A♠", "K♥", "J♦"))


def test_the_log_writes_them_in_english_letters_in_english() -> None:
    lines = [line["text"] for line in log_lines(ENTRIES, ["Anna", "Boris"], "en")]
    assert lines[0] == "Anna leads Q♠ Q♥"
    assert lines[1] == "Boris covers Q♠ with A♠"
    assert lines[3] == "Anna throws in J♦ 10♣"


def test_the_page_strings_carry_the_letters_of_the_language() -> None:
    with translation.override("ru"):
        assert {key: str(value) for key, value in client_strings()["ranks"].items()} == {
            "J": "В", "Q": "Д", "K": "К", "A": "Т",
        }  # fmt: skip
        assert card_text("AH") == "Т♥"
    with translation.override("en"):
        assert client_strings()["ranks"] == {"J": "J", "Q": "Q", "K": "K", "A": "A"}
        assert card_text("AH") == "A♥"
