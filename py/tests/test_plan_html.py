"""The HTML report: self-contained, and rendered by a real headless browser (Debian's chromium)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from pulsar_routing.plan.admin import read_admin_bundles, read_admin_stats
from pulsar_routing.plan.split_forecast import AutoSplitReport, autosplit
from pulsar_routing.plan.cli import main
from pulsar_routing.plan.html import render_html, write_html

ADMIN = Path(__file__).resolve().parents[2] / "testdata" / "admin"


def forecast() -> AutoSplitReport:
    stats = read_admin_stats([ADMIN / "broker-stats-topics-broker-1.json", ADMIN / "broker-stats-topics-broker-2.json"])
    return autosplit(stats, read_admin_bundles(ADMIN / "namespaces-bundles.json"))


def test_the_page_needs_nothing_from_outside() -> None:
    page = render_html(forecast())
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page and "<link" not in page and "@import" not in page and "url(" not in page
    # Every src is inline data; no address anywhere a browser would fetch.
    assert re.findall(r'src="([a-z]+):', page) == ["data"]
    assert not re.search(r'(src|href)="(https?:)?//', page)
    assert "pulsar-admin namespaces create acme/shop --bundles 7" in page


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("chromium cannot start: not installed (scripts/install-system-deps.sh installs it)")


def _run(browser: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               f"--user-data-dir={profile}", *args]
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    except OSError as err:
        pytest.skip(f"chromium cannot start: {err}")


def test_chromium_renders_the_report(tmp_path: Path) -> None:
    browser = _chromium()
    page = tmp_path / "autosplit.html"
    assert main(["autosplit", "--admin-bundles", str(ADMIN / "namespaces-bundles.json"), "--admin-stats",
                 str(ADMIN / "broker-stats-topics-broker-1.json"), str(ADMIN / "broker-stats-topics-broker-2.json"),
                 "--html", str(page)]) == 0
    url = page.resolve().as_uri()
    dom = _run(browser, tmp_path / "profile", "--dump-dom", url)
    if dom.returncode != 0 and not dom.stdout:
        pytest.skip(f"chromium cannot start: {dom.stderr.strip().splitlines()[-1:]}")
    text = re.sub(r"<[^>]+>", " ", dom.stdout)
    for figure in ("4 -&gt; 5 bundles", "persistent://acme/shop/clicks", "--bundles 7", "69,600", "42,000"):
        assert figure in text, figure
    shot = tmp_path / "shot.png"
    _run(browser, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1200,1600", url)
    assert shot.is_file(), "chromium wrote no screenshot"
    import matplotlib.image

    pixels = np.asarray(matplotlib.image.imread(shot))[..., :3]
    # Not blank: a good share of the page is neither white nor one flat colour.
    not_white = (pixels < 0.95).any(axis=2).mean()
    assert not_white > 0.05 and pixels.std() > 0.1
    # The picture is drawn: some of the bars' blue (#2e86c1) or red (#c0392b) is on screen.
    blue = (np.abs(pixels - np.array([0x2E, 0x86, 0xC1]) / 255).max(axis=2) < 0.05).mean()
    red = (np.abs(pixels - np.array([0xC0, 0x39, 0x2B]) / 255).max(axis=2) < 0.05).mean()
    assert blue + red > 0.005


def test_every_analysis_takes_html(tmp_path: Path) -> None:
    for argv in (
        ["skew", "a", "b", "c", "-n", "2"],
        ["queue", "--peak", "1000", "--window", "5", "--message-bytes", "100"],
        ["bundles", "persistent://t/n/a", "persistent://t/n/b"],
    ):
        out = tmp_path / f"{argv[0]}.html"
        assert main([*argv, "--html", str(out)]) == 0
        assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    report = write_html(forecast(), tmp_path / "f.html")
    assert Path(report).stat().st_size > 10_000  # the picture is inside
