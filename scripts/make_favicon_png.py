"""Draw static/favicon.png, the PNG fallback of static/favicon.svg, by rendering the SVG in Chromium.

Run it after changing the SVG: `.venv/bin/python scripts/make_favicon_png.py` (needs /usr/bin/chromium).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "static"
SIZE = 64


def main() -> int:
    svg = (STATIC / "favicon.svg").read_text()
    html = f"<html><body style='margin:0;background:transparent'><div style='width:{SIZE}px;height:{SIZE}px'>{svg}</div></body></html>"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": SIZE, "height": SIZE})
        page.set_content(html)
        page.locator("svg").evaluate("svg => { svg.setAttribute('width', '64'); svg.setAttribute('height', '64'); }")
        page.screenshot(path=str(STATIC / "favicon.png"), omit_background=True, clip={"x": 0, "y": 0, "width": SIZE, "height": SIZE})
        browser.close()
    print(f"wrote {STATIC / 'favicon.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
