"""What every bench/ script shares: the --json/--quick command line, a table printer and the JSON report.

The report format is fixed by DESIGN.md ("Benchmarks"):
``{"figures": {"name": number, ...}, "machine": "...", "when": "..."}``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

# bench scripts run as `python bench/<name>.py`; the repository root holds the packages they measure.
REPOSITORY_ROOT = Path(__file__).resolve().parent.parent
if str(REPOSITORY_ROOT) not in sys.path:
    sys.path.insert(0, str(REPOSITORY_ROOT))


def parse_args(description: str, argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The common options: ``--json PATH`` writes the report, ``--quick`` runs a version under a minute."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--json", metavar="PATH", type=Path, help="also write the figures to PATH as JSON")
    parser.add_argument("--quick", action="store_true", help="a small run that finishes within a minute")
    return parser.parse_args(argv)


def machine() -> str:
    """A one-line description of where the figures were measured, for comparing reports."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass  # not Linux: platform.processor() is the best there is
    return (
        f"{cpu}, {os.cpu_count()} logical CPUs, {platform.system()} {platform.release()}, "
        f"{platform.python_implementation()} {platform.python_version()}"
    )


def print_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """Print rows under a header, columns padded; numbers right-aligned, text left-aligned."""
    cells = [[str(cell) for cell in header]] + [[_cell(value) for value in row] for row in rows]
    widths = [max(len(row[column]) for row in cells) for column in range(len(header))]
    numeric = [all(isinstance(row[column], int | float) for row in rows) for column in range(len(header))]
    for index, row in enumerate(cells):
        print(
            "  ".join(
                cell.rjust(width) if is_number else cell.ljust(width)
                for cell, width, is_number in zip(row, widths, numeric, strict=True)
            ).rstrip()
        )
        if index == 0:
            print("  ".join("-" * width for width in widths))


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.4f}" if abs(value) < 100 else f"{value:,.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def write_report(path: Path, figures: Mapping[str, float | int]) -> None:
    """Write the DESIGN.md report: the figures, the machine and the time (UTC, ISO 8601)."""
    report = {
        "figures": dict(figures),
        "machine": machine(),
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
