"""The rules pages' Markdown (markdown-it-py): bold everywhere, no injected markup, safe links, heading anchors."""

from __future__ import annotations

import pathlib
import re

import pytest

from boardlab.server.markdown import to_html

RULES = sorted((pathlib.Path(__file__).resolve().parents[2] / "docs" / "rules").glob("*.md"))
_CODE_HTML = re.compile(r"<pre><code.*?</code></pre>|<code>.*?</code>", re.DOTALL)
_CODE_MD = re.compile(r"^```.*?^```|`[^`\n]*`", re.DOTALL | re.MULTILINE)


def test_rules_documents_are_found() -> None:
    assert len(RULES) >= 9


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_every_bold_in_a_rules_document_renders_as_strong(path: pathlib.Path) -> None:
    source = path.read_text(encoding="utf-8")
    html = to_html(source)
    outside_code = _CODE_HTML.sub("", html)
    assert "**" not in outside_code
    pairs = _CODE_MD.sub("", source).count("**") // 2
    assert pairs > 0 and outside_code.count("<strong>") == pairs == outside_code.count("</strong>")


def test_bold_across_a_line_break_in_a_list_item_and_a_paragraph() -> None:
    html = to_html("- four **attack\n  tokens** and a **facing**\n\nSome **bold\ntext** here.")
    assert "<li>four <strong>attack\ntokens</strong> and a <strong>facing</strong></li>" in html
    assert "<p>Some <strong>bold\ntext</strong> here.</p>" in html


def test_the_rules_that_once_showed_literal_stars() -> None:
    root = pathlib.Path(__file__).resolve().parents[2] / "docs" / "rules"
    dragon = to_html((root / "dragon-fight.md").read_text(encoding="utf-8"))
    assert "four <strong>attack\ntokens</strong>" in dragon and "<strong>facing</strong>" in dragon
    penny = to_html((root / "new-rule.md").read_text(encoding="utf-8"))
    assert "<strong>This can never\nhappen</strong>" in penny


def test_raw_html_is_shown_as_text() -> None:
    html = to_html('<script>alert(1)</script>\n\nA <img src=x onerror="y"> and <b>b</b>\n\n| <i>a</i> |\n|---|\n| 1 |')
    assert "<script" not in html and "<img" not in html and "<b>" not in html and "<i>" not in html
    assert "&lt;script&gt;" in html and "&lt;img" in html and "<th>&lt;i&gt;a&lt;/i&gt;</th>" in html


@pytest.mark.parametrize(
    ("url", "kept"),
    [
        ("https://example.org/x", True),
        ("http://example.org", True),
        ("#setup", True),
        ("other.md#end", True),
        ("/api/games", True),
        ("javascript:alert(1)", False),
        ("JaVaScRiPt:alert(1)", False),
        ("data:text/html,<b>x</b>", False),
        ("vbscript:x", False),
    ],
)
def test_only_safe_links_are_kept(url: str, kept: bool) -> None:
    html = to_html(f"see [the text]({url}) now")
    if kept:
        assert html.startswith('<p>see <a href="') and html.endswith('">the text</a> now</p>')
    else:
        assert html == "<p>see the text now</p>"


def test_headings_get_unique_anchors() -> None:
    html = to_html("# Blast Radius\n\n## Setup (§3)\n\n## Setup (§3)\n\n## `a1` cells")
    assert '<h1 id="blast-radius">Blast Radius</h1>' in html
    assert '<h2 id="setup-3">Setup (§3)</h2>' in html and '<h2 id="setup-3-2">' in html
    assert '<h2 id="a1-cells">' in html


def test_tables_and_nested_lists() -> None:
    html = to_html("1. one\n2. two\n   - sub **b**\n\n| a | b |\n|---|---|\n| 1 | 2 |")
    assert "<ol>" in html and "<ul>" in html and "<strong>b</strong>" in html
    assert "<table>" in html and "<td>1</td>" in html
