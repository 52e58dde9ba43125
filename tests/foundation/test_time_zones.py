"""Every time the site shows is in the reader's zone and names it: the profile's zone, else the zone the
browser reported in the `tz` cookie, else the site's; a cookie that is no zone is ignored."""

from __future__ import annotations

import datetime
import logging
import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.services import user_time_zone_set
from durak_site.time_zones import TIME_ZONE_COOKIE, zone_label, zone_or_none
from tests.games.factories import person
from tests.tournaments.factories import tournament

pytestmark = pytest.mark.django_db

# 10:30 UTC: 13:30 in Moscow (MSK), 15:30 in Tashkent (UTC+5, a zone without letters for its name).
START = (timezone.now() + datetime.timedelta(days=2)).replace(hour=10, minute=30, second=0, microsecond=0)


def _start_shown(client: Client, language: str = "ru") -> str:
    event = tournament(starts_at=START, registration_closes=START - datetime.timedelta(minutes=5))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(f"/tournaments/{event.pk}/")
    assert page.status_code == 200
    text = re.sub(r"\s+", " ", page.content.decode())
    found = re.search(r"<dd>([^<]*)</dd>", text[text.index("Start" if language == "en" else "Начало"):])
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(
    ("zone", "shown"), [("Europe/Moscow", "13:30 MSK"), ("Asia/Tashkent", "15:30 UTC+5"), ("UTC", "10:30 UTC")]
)
def test_the_tournament_start_is_shown_in_the_browser_zone_with_its_name(zone: str, shown: str) -> None:
    client = Client()
    client.cookies[TIME_ZONE_COOKIE] = zone
    assert _start_shown(client).endswith(shown)


def test_a_percent_encoded_cookie_is_read_too() -> None:
    client = Client()
    client.cookies[TIME_ZONE_COOKIE] = "Asia%2FTashkent"
    assert _start_shown(client).endswith("15:30 UTC+5")


def test_english_pages_name_the_zone_too() -> None:
    client = Client()
    client.cookies[TIME_ZONE_COOKIE] = "Asia/Tashkent"
    assert _start_shown(client, "en").endswith("3:30 p.m. UTC+5")


@pytest.mark.parametrize("cookie", ["Mars/Olympus_Mons", "../../etc/passwd", "", "x" * 500, "Europe/Moscow\x00"])
def test_a_bad_cookie_falls_back_to_the_site_zone(cookie: str) -> None:
    client = Client()
    client.cookies[TIME_ZONE_COOKIE] = cookie
    site = zone_label(START.astimezone(zone_or_none(settings.TIME_ZONE)))  # the site's default zone
    shown = _start_shown(client)
    assert shown.endswith(site), shown
    assert zone_or_none(cookie) is None


def test_the_profile_setting_wins_over_the_cookie() -> None:
    user = person()
    user_time_zone_set(user=user, time_zone="Asia/Tashkent")
    client = Client()
    client.force_login(user)
    client.cookies[TIME_ZONE_COOKIE] = "Europe/Moscow"
    assert _start_shown(client).endswith("15:30 UTC+5")
    # Without a setting his browser's zone serves.
    user_time_zone_set(user=user, time_zone="")
    assert _start_shown(client).endswith("13:30 MSK")


def test_the_profile_page_offers_the_zones_and_refuses_an_unknown_one(caplog: pytest.LogCaptureFixture) -> None:
    user = person()
    client = Client()
    client.force_login(user)
    page = client.get("/accounts/profile/").content.decode()
    assert 'name="time_zone"' in page and '<option value="Asia/Tashkent">' in page
    form = {"display_name": "Ann", "country": "", "preferred_language": "en"}
    client.post("/accounts/profile/", {**form, "time_zone": "Europe/Moscow"})
    user.refresh_from_db()
    assert user.time_zone == "Europe/Moscow"
    with caplog.at_level(logging.WARNING):
        answer = client.post("/accounts/profile/", {**form, "time_zone": "Mars/Olympus_Mons"})
    assert answer.status_code == 200
    user.refresh_from_db()
    assert user.time_zone == "Europe/Moscow"


def test_the_browser_reports_its_zone_from_every_page() -> None:
    page = Client().get("/").content.decode()
    assert "time_zone.js" in page
    script = (settings.BASE_DIR / "static" / "time_zone.js").read_text()
    assert "Intl.DateTimeFormat().resolvedOptions().timeZone" in script
    assert f'const COOKIE = "{TIME_ZONE_COOKIE}";' in script


def test_zone_labels() -> None:
    moment = datetime.datetime(2026, 7, 1, 12, 0, tzinfo=datetime.UTC)
    assert zone_label(moment.astimezone(zone_or_none("Asia/Kolkata"))) == "IST" or zone_label(
        moment.astimezone(zone_or_none("Asia/Kolkata"))
    ) == "UTC+5:30"
    assert zone_label(moment.astimezone(zone_or_none("America/St_Johns"))) in ("NDT", "UTC-2:30")
    assert zone_label(moment.astimezone(zone_or_none("America/Sao_Paulo"))) == "UTC-3"
