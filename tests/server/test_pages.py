"""The HTML pages are served inside web/layout.html: one shared head and top bar, each page's own title, styles,
scripts, top-bar items and body, with the validators a static file had."""

from __future__ import annotations

import re

import pytest

from boardlab.server.pages import fill, layout_text

PAGES = {  # path: (its title, its own script, what its top bar shows after the brand)
    "/": ("boardlab · play small board and card games", "/static/js/lobby.js", '<span class="crumb">lobby</span>'),
    "/table/abc": ("Table · boardlab", "/static/js/table.js", 'id="conn"'),
    "/replay": ("Replay · boardlab", "/static/js/replay.js", '<span class="crumb" id="crumb">replay</span>'),
    "/lab": ("Lab · boardlab", "/static/js/lab.js", '<span class="crumb">lab</span>'),
    "/leaderboard": ("Leaderboards · boardlab", "/static/js/leaderboard.js", '<span class="account" id="account">'),
    "/players/someone": ("Player · boardlab", "/static/js/profile.js", '<span class="crumb" id="crumb">player</span>'),
}


@pytest.mark.parametrize("path", PAGES)
def test_every_page_is_its_own_parts_in_the_one_layout(client, path) -> None:
    title, script, bar = PAGES[path]
    r = client.get(path)
    assert r.status_code == 200 and r.headers["content-type"] == "text/html; charset=utf-8"
    text = r.text
    assert text.startswith('<!doctype html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n') and text.endswith(
        "</body>\n</html>\n"
    )
    assert re.findall(r"<title>(.*?)</title>", text) == [title]
    head, body = text.split("</head>", 1)
    assert head.count('href="/static/style.css"') == 1 and head.count("/static/favicon.svg") == 1
    assert f'<script type="module" src="{script}"></script>' in head
    own_css = re.findall(r'href="/static/(\w+)\.css"', head)
    assert own_css[0] == "style" and len(own_css) == len(set(own_css))  # the shared sheet first, the page's after it
    top_bar = body.split("</header>", 1)[0]
    assert top_bar.count('<a class="brand" href="/">boardlab</a>') == 1 and bar in top_bar
    assert body.count("<main") == 1 and 'data-ready="0"' in body.split("</header>", 1)[1]
    # it revalidates like the static file it was: no-cache, with an ETag that stays while the files do
    assert r.headers["cache-control"] == "no-cache" and r.headers["last-modified"].endswith(" GMT")
    assert client.get(path).headers["etag"] == r.headers["etag"]


def test_the_pages_differ_in_their_etags(client) -> None:
    assert len({client.get(path).headers["etag"] for path in PAGES}) == len(PAGES)  # each page its own document


def test_a_page_not_in_the_page_form_is_refused_not_served_half() -> None:
    layout = layout_text()
    good = (
        '<head>\n  <title>T</title>\n</head>\n<body>\n  <header class="top">\n  </header>\n  <main></main>\n</body>\n'
    )
    assert "<title>T</title>" in fill(layout, good) and "<title>boardlab</title>" not in fill(layout, good)
    # a page's own parts are never taken for the layout's places, even where they hold the same lines
    odd = good.replace(
        "  <main></main>\n", "  <main>\n  </header>\n<body>\n</head>\n  <title>boardlab</title>\n</main>\n"
    )
    assert fill(layout, odd).count("<main>\n  </header>\n<body>\n</head>\n  <title>boardlab</title>\n</main>") == 1
    for bad in (good.replace("<head>\n", ""), good.replace('  <header class="top">\n', ""), "<p>hello</p>"):
        with pytest.raises(ValueError):
            fill(layout, bad)
    with pytest.raises(ValueError):
        fill(layout.replace("</head>\n", ""), good)
