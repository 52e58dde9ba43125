"""Production settings pass Django's deployment checklist and send the security headers (issue 10).

Both run in a fresh interpreter with the production settings module, as a deployed server would load them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.processes import PROJECT_DIR

_SETTINGS_VARIABLES = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "CI"}
PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "durak_site.settings.production",
    "SECRET_KEY": "q8Zr-4vLw2NpX7kT1mB9cY5hD3fG6jS0aE8uI2oP4lK7jH1gF9dS3aQ5wE7rT0yU",
    "ALLOWED_HOSTS": "durak.example",
}


def _production(args: list[str]) -> subprocess.CompletedProcess[str]:
    clean = {name: value for name, value in os.environ.items() if name not in _SETTINGS_VARIABLES}
    return subprocess.run(
        [sys.executable, *args],
        cwd=PROJECT_DIR,
        env={**clean, **PRODUCTION},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings() -> None:
    result = _production(["manage.py", "check", "--deploy", "--fail-level", "WARNING"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


_HEADERS_SCRIPT = """
import json, django
django.setup()
from django.conf import settings
from django.test import Client, override_settings
from django.test.utils import setup_test_environment
setup_test_environment()
# No collectstatic here: hashed names are not what this checks.
override_settings(STORAGES={**settings.STORAGES, "staticfiles": {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}).enable()
client = Client(HTTP_HOST="durak.example")
plain = client.get("/healthz")
http_page = client.get("/accounts/log-in/")
page = client.get("/accounts/log-in/", secure=True)
print(json.dumps({
    "plain_status": plain.status_code,
    "http_status": http_page.status_code,
    "http_location": http_page.get("Location"),
    "headers": {name: page.get(name) for name in (
        "Strict-Transport-Security", "X-Content-Type-Options", "X-Frame-Options",
        "Referrer-Policy", "Cross-Origin-Opener-Policy")},
    "csrf_cookie_secure": bool(page.cookies["csrftoken"]["secure"]) if "csrftoken" in page.cookies else None,
}))
"""


def test_production_responses_carry_the_security_headers() -> None:
    result = _production(["-c", _HEADERS_SCRIPT])
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    # Plain HTTP is sent to HTTPS, except the balancer's health probe.
    assert seen["http_status"] == 301
    assert seen["http_location"].startswith("https://durak.example/")
    assert seen["plain_status"] != 301
    headers = seen["headers"]
    assert headers["Strict-Transport-Security"] == "max-age=2592000; includeSubDomains; preload"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert seen["csrf_cookie_secure"] is True
