"""The /data/ page in both languages, its downloads (only files its rows list), the footer's link, and the
profile's opt-out checkbox."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.template.defaultfilters import filesizeformat
from django.test import Client
from django.urls import reverse
from django.utils import translation

from gamedata.models import MonthlyExport
from gamedata.services import monthly_export_make
from tests.gamedata.helpers import MONTH, at, finished_at, finished_game, lines_of
from tests.games.factories import person

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(data_dir: Path) -> MonthlyExport:
    anna = person("gdp-anna")
    finished_at(finished_game([anna], bots=[1]), at(9))
    return monthly_export_make(month=MONTH)


def _client(language: str) -> Client:
    client = Client()
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.mark.parametrize(("language", "heading", "format_heading", "other_language"), [
    ("en", "Game data", "What a line holds", "Что в строке"), ("ru", "Данные об играх", "Что в строке", "What a line holds"),
])  # fmt: skip
def test_the_page_lists_each_month_with_its_games_size_sha256_and_link(
    published: MonthlyExport, language: str, heading: str, format_heading: str, other_language: str
) -> None:
    response = _client(language).get("/data/")
    assert response.status_code == 200
    page = response.content.decode()
    assert f"<h1>{heading}</h1>" in page and format_heading in page and other_language not in page
    download = {"en": ">Download</a>", "ru": ">Скачать</a>"}[language]
    assert page.count(download) == 1
    link = reverse("gamedata:file", args=[published.file_name])
    assert link == "/data/durak_games_2024-03.jsonl.gz" and f'href="{link}"' in page
    assert "2024-03" in page and published.sha256 in page
    with translation.override(language):
        size = str(filesizeformat(published.bytes))
    assert size in page
    assert f'<td class="number">{published.games}</td>' in page and published.games == 1
    # How to read it back: the three lines of Python, and the replay tool, naming the newest file.
    assert 'gzip.open("durak_games_2024-03.jsonl.gz", "rt", encoding="utf-8")' in page
    assert "zcat durak_games_2024-03.jsonl.gz | head -n 1 | python manage.py replay -" in page
    assert 'href="#format"' in page and 'id="format"' in page


def test_the_page_without_any_month_says_so(data_dir: Path) -> None:
    page = _client("en").get("/data/").content.decode()
    assert "No month has been published yet" in page and "<table" not in page


def test_the_footer_links_the_page_in_both_languages() -> None:
    for language, words in (("en", "Game data"), ("ru", "Данные об играх")):
        page = _client(language).get("/").content.decode()
        footer = page[page.index('<footer class="site-footer">'):]
        assert f'<a href="/data/">{words}</a>' in footer


def test_a_listed_file_is_served_as_it_was_written(published: MonthlyExport, data_dir: Path) -> None:
    response = Client().get(f"/data/{published.file_name}")
    assert response.status_code == 200
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    assert body == (data_dir / published.file_name).read_bytes()
    assert hashlib.sha256(body).hexdigest() == published.sha256 and len(body) == published.bytes
    assert response["Content-Type"] == "application/gzip"
    assert response["Content-Disposition"] == f'attachment; filename="{published.file_name}"'
    assert response["X-Content-SHA256"] == published.sha256
    (data_dir / "copy.gz").write_bytes(body)
    assert len(lines_of(data_dir / "copy.gz")) == 1


@pytest.mark.parametrize("name", [
    "durak_games_2030-01.jsonl.gz",  # no such month
    "stray.jsonl.gz",  # on the disk, listed by no row
    "..%2Fgamedata%2Fstray.jsonl.gz",
    "%2Fetc%2Fpasswd",
    "durak_games_2024-03.jsonl",
])  # fmt: skip
def test_a_made_up_file_name_is_refused(published: MonthlyExport, data_dir: Path, name: str) -> None:
    (data_dir / "stray.jsonl.gz").write_bytes(b"not published")
    response = Client().get(f"/data/{name}")
    assert response.status_code == 404
    assert not getattr(response, "streaming", False)


def test_a_listed_file_gone_from_the_disk_is_not_found(published: MonthlyExport, data_dir: Path) -> None:
    (data_dir / published.file_name).unlink()
    assert Client().get(f"/data/{published.file_name}").status_code == 404


def test_a_row_naming_a_path_outside_the_folder_is_not_served(data_dir: Path, tmp_path: Path) -> None:
    """Only a plain name is joined to the folder, whatever a row holds."""
    (tmp_path / "secret.txt").write_text("secret")
    data_dir.mkdir(parents=True)
    MonthlyExport.objects.create(month=MONTH, file_name="../secret.txt", games=0, bytes=6, sha256="0" * 64)
    assert Client().get("/data/..%2Fsecret.txt").status_code == 404


def test_a_download_answers_head_too(published: MonthlyExport) -> None:
    response = Client().head(f"/data/{published.file_name}")
    assert response.status_code == 200 and int(response["Content-Length"]) == published.bytes


def test_the_pages_refuse_a_post() -> None:
    client = Client()
    assert client.post("/data/").status_code == 405
    assert client.post("/data/durak_games_2024-03.jsonl.gz").status_code == 405


@pytest.mark.parametrize(("language", "label"), [
    ("en", "leave my games out of the open game data"), ("ru", "не включать мои партии в открытые данные об играх"),
])  # fmt: skip
def test_the_profile_has_the_opt_out_checkbox_in_both_languages_and_saves_it(language: str, label: str) -> None:
    vera = person(f"gdp-vera-{language}", language=language)
    client = Client()
    client.force_login(vera)
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(reverse("accounts:profile")).content.decode()
    assert 'name="data_export_opt_out"' in page and label in page.lower()
    sentence = {"en": "no game you played in goes into a file made from now on",
                "ru": "ни одна партия с вашим участием не попадёт в файлы"}[language]  # fmt: skip
    assert sentence in page
    form = {"display_name": "", "country": "", "preferred_language": language, "time_zone": ""}
    client.post(reverse("accounts:profile"), {**form, "data_export_opt_out": "on"})
    vera.refresh_from_db()
    assert vera.data_export_opt_out is True
    client.post(reverse("accounts:profile"), form)
    vera.refresh_from_db()
    assert vera.data_export_opt_out is False


def test_opting_out_takes_his_games_out_of_the_next_file(data_dir: Path) -> None:
    anna, boris = person("gdp-opt-a"), person("gdp-opt-b")
    game = finished_at(finished_game([anna, boris]), at(6))
    assert [line["id"] for line in lines_of(data_dir / monthly_export_make(month=MONTH).file_name)] == [game.pk]
    client = Client()
    client.force_login(boris)
    form = {"display_name": "", "country": "", "preferred_language": "en", "time_zone": ""}
    client.post(reverse("accounts:profile"), {**form, "data_export_opt_out": "on"})
    export = monthly_export_make(month=MONTH)
    assert export.games == 0 and lines_of(data_dir / export.file_name) == []


def test_the_admin_lists_the_months_and_changes_none(published: MonthlyExport) -> None:
    boss = person("gdp-boss")
    boss.is_staff = boss.is_superuser = True
    boss.save(update_fields=["is_staff", "is_superuser"])
    client = Client()
    client.force_login(boss)
    listing = client.get(reverse("admin:gamedata_monthlyexport_changelist"))
    assert listing.status_code == 200 and published.file_name in listing.content.decode()
    assert client.get(reverse("admin:gamedata_monthlyexport_add")).status_code == 403
