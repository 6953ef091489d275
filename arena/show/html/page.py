"""The frame every page shares: one HTML document with its style and scripts inlined.

Nothing is fetched at view time (no CDN, fonts or scripts from elsewhere): the CSS and
JavaScript next to this module are copied into the page.
"""

from __future__ import annotations

from html import escape
from importlib import resources


def asset(name: str) -> str:
    """The text of a CSS or JavaScript file of this package."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def unbroken(text: str) -> str:
    """``text`` as HTML that does not break across lines (a game id at its hyphens)."""
    return f'<span class="id">{escape(text)}</span>'


def document(
    title: str, subtitle: str, body: str, scripts: tuple[str, ...], *, heading: str = ""
) -> str:
    """A complete page: ``body`` is HTML; ``scripts`` are asset names run at the end.
    ``heading`` is the HTML of the page's heading when it is more than ``title`` escaped."""
    code = "\n".join(asset(name) for name in scripts)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{asset('style.css')}</style></head>"
        f"<body><header><h1>{heading or escape(title)}</h1><p>{escape(subtitle)}</p></header>"
        f"<main>{body}</main><script>{code}</script></body></html>\n"
    )
