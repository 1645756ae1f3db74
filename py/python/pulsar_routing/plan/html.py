"""One self-contained HTML file per result, to open in a browser or mail.

Everything is inside the file: the styles, the tables (built from the
result's ``to_dict()``), the text report, and the picture (the same one
``--plot`` draws) as a ``data:`` URI. No scripts, no fonts, no network.
"""

from __future__ import annotations

import base64
import html
import os
import tempfile
from pathlib import Path
from typing import Any

from .results import Result

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
       margin: 2rem auto; max-width: 78rem; padding: 0 1rem; color: #1c2833; background: #ffffff; }
h1 { font-size: 1.5rem; border-bottom: 3px solid #2e86c1; padding-bottom: .3rem; }
h2 { font-size: 1.15rem; margin-top: 2rem; color: #1b4f72; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .85rem; display: block; overflow-x: auto;
        max-width: 100%; }
th, td { border: 1px solid #d5d8dc; padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #eaf2f8; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f4f6f7; padding: 1rem; overflow-x: auto; font-size: .8rem; line-height: 1.25; }
img { max-width: 100%; border: 1px solid #d5d8dc; }
.meta { color: #566573; font-size: .85rem; }
"""

# Lists longer than this are cut in the tables (the text report and the JSON have them all).
_MAX_ROWS = 200


def _cell(value: Any) -> str:
    if value is None:
        return '<td class="n">-</td>'
    if isinstance(value, bool):
        return f"<td>{'yes' if value else 'no'}</td>"
    if isinstance(value, int):
        return f'<td class="n">{value:,}</td>'
    if isinstance(value, float):
        text = f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.4g}"
        return f'<td class="n">{text}</td>'
    if isinstance(value, (dict, list)):
        return f"<td>{_block(value)}</td>"
    return f"<td>{html.escape(str(value))}</td>"


def _rows_table(rows: list[dict[str, Any]]) -> str:
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    shown = rows[:_MAX_ROWS]
    body = "".join("<tr>" + "".join(_cell(r.get(c)) for c in columns) + "</tr>" for r in shown)
    more = f'<p class="meta">{len(rows) - len(shown):,} more rows in the JSON.</p>' if len(rows) > len(shown) else ""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    return f"<table><tr>{head}</tr>{body}</table>{more}"


def _block(value: Any) -> str:
    """A dict as a two-column table, a list of dicts as a table with a row each, other lists inline."""
    if isinstance(value, dict):
        if not value:
            return "-"
        rows = "".join(f"<tr><th>{html.escape(str(k))}</th>{_cell(v)}</tr>" for k, v in value.items())
        return f"<table>{rows}</table>"
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            return _rows_table(value)
        if len(value) > _MAX_ROWS:
            value = [*value[:_MAX_ROWS], f"... {len(value) - _MAX_ROWS:,} more"]
        return html.escape(", ".join("-" if v is None else str(v) for v in value)) or "-"
    return html.escape(str(value))


def _picture(result: Result) -> str | None:
    """The result's plot as a PNG data URI; None when it has none or matplotlib is missing."""
    from .plots import plot

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "plot.png"
        try:
            plot(result, path)
        except (TypeError, ImportError):
            return None
        return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def render_html(result: Result, *, title: str | None = None) -> str:
    """The whole page as a string."""
    text = str(result)
    heading = title or (text.strip().splitlines()[0] if text.strip() else type(result).__name__)
    from .. import __version__

    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(heading)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(heading)}</h1>",
        f'<p class="meta">pulsar-routing {html.escape(__version__)}: {html.escape(type(result).__name__)}</p>',
    ]
    picture = _picture(result)
    if picture is not None:
        parts += ["<h2>Picture</h2>", f'<img alt="{html.escape(heading)}" src="{picture}">']
    parts += ["<h2>Report</h2>", f"<pre>{html.escape(text)}</pre>"]
    data = result.to_dict()
    scalars = {k: v for k, v in data.items() if not isinstance(v, (dict, list)) or not v}
    parts += ["<h2>Figures</h2>", _block(scalars)]
    for key, value in data.items():
        if isinstance(value, (dict, list)) and value:
            parts += [f"<h2>{html.escape(key.replace('_', ' '))}</h2>", _block(value)]
    parts.append("</body></html>")
    return "\n".join(parts)


def write_html(result: Result, path: str | os.PathLike[str], *, title: str | None = None) -> str:
    """Writes the page to ``path`` (UTF-8); returns the path."""
    Path(path).write_text(render_html(result, title=title), encoding="utf-8")
    return os.fspath(path)
