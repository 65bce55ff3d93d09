"""The site's HTML pages: ``web/layout.html`` (the head and top bar every page shares) filled with a page's own parts.

A page file in ``web/`` (``index.html``, ``table.html``, ...) holds only what is its own, in this form::

    <head>
      <title>Lab · boardlab</title>
      <link rel="stylesheet" href="/static/lab.css">     (its own styles and scripts, if any)
    </head>
    <body>                                               (its own attributes, if any: <body class="table-page">)
      <header class="top">
        <span class="crumb">lab</span>                   (what the top bar shows after the brand)
      </header>
      <main ...>...</main>                               (the rest of the body)
    </body>

and the server serves it inside the layout: the page's title takes the layout's title's place, its head follows the
layout's head (charset, viewport, icon, style.css), its ``<body>`` tag takes the layout's, its top bar follows the
brand, and its body follows the top bar. The files are read on every request (no build step; an edit shows on the
next load), and the response keeps the headers a file had: ``Cache-Control: no-cache``, an ETag and Last-Modified.
"""

from __future__ import annotations

import email.utils
import hashlib
import pathlib
import re

from fastapi.responses import HTMLResponse

WEB_DIR = pathlib.Path(__file__).resolve().parent.parent / "web"
LAYOUT = "layout.html"

_PAGE = re.compile(
    r"<head>\n(?P<title>  <title>[^\n]*</title>\n)(?P<head>.*?)</head>\n(?P<body><body[^>]*>)\n"
    r"  <header class=\"top\">\n(?P<bar>.*?)  </header>\n(?P<main>.*)</body>\n?",
    re.DOTALL,
)
_BRAND = '    <a class="brand" href="/">boardlab</a>\n'


def fill(layout: str, page: str) -> str:
    """The whole document: ``layout`` (the text of layout.html) with ``page`` (a page in the form above) in it."""
    parts = _PAGE.fullmatch(page)
    if parts is None:
        raise ValueError('a page must be <head> with its <title> first, then <body>, its <header class="top">, …')
    # each line of the layout where a part of the page goes, and what takes the line's place
    slots = {
        "  <title>boardlab</title>\n": parts["title"],
        "</head>\n": parts["head"] + "</head>\n",
        "<body>\n": parts["body"] + "\n",
        _BRAND: _BRAND + parts["bar"],
        "  </header>\n": "  </header>\n" + parts["main"],
    }
    for line in slots:
        if layout.count(line) != 1:
            raise ValueError(f"the layout must have the line {line.strip()!r} once")
    # one pass over the layout: a part that holds such a line itself stays as it is
    return re.sub("|".join(map(re.escape, slots)), lambda line: slots[line[0]], layout)


def layout_text() -> str:
    return (WEB_DIR / LAYOUT).read_text(encoding="utf-8")


def page_response(name: str) -> HTMLResponse:
    """The page ``web/<name>`` in the layout, with the validators a static file would carry."""
    files = (WEB_DIR / LAYOUT, WEB_DIR / name)
    text = fill(*(f.read_text(encoding="utf-8") for f in files))
    mtime = max(f.stat().st_mtime for f in files)
    return HTMLResponse(
        text,
        headers={
            "Cache-Control": "no-cache",
            "ETag": f'"{hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()}"',
            "Last-Modified": email.utils.formatdate(mtime, usegmt=True),
        },
    )


def made_page(title: str, crumb: str, main: str, *, body: str = "<body>", end: str = "") -> str:
    """The layout filled with a page the server writes itself (a game's rules, a missing page): ``title``, the top
    bar's ``crumb`` and the ``main`` element, all HTML already escaped; ``end``: what follows main (scripts)."""
    page = (
        f'<head>\n  <title>{title}</title>\n</head>\n{body}\n  <header class="top">\n'
        f'    <span class="crumb">{crumb}</span>\n  </header>\n  {main}\n{end}</body>\n'
    )
    return fill(layout_text(), page)
