"""Markdown to HTML for the rules documents, with markdown-it-py (CommonMark, plus tables).

Raw HTML in a document is shown as text, never passed through, so a document
can never inject markup; links are kept only for http(s), relative paths and
anchors (any other link shows its text alone). Headings get ``id`` anchors from
their text (``-2``, ``-3``… when a text repeats). A fenced block whose language
``fences`` names is replaced by what that function makes of its text (the
rules pages draw ``position`` blocks as diagrams: :mod:`boardlab.server.pictures`).

>>> to_html("# Title\\n\\n1. **Board.** Six *cells*.\\n   - `a1` first")
'<h1 id="title">Title</h1>\\n<ol>\\n<li><strong>Board.</strong> Six <em>cells</em>.\\n<ul>\\n<li><code>a1</code> first</li>\\n</ul>\\n</li>\\n</ol>'
>>> to_html("A <b>tag</b> and [a link](javascript:alert(1))")
'<p>A &lt;b&gt;tag&lt;/b&gt; and a link</p>'
>>> to_html("```shout\\nhi\\n```", fences={"shout": lambda t: t.upper()})
'HI'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

_SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*):", re.IGNORECASE)
_SAFE_SCHEMES = ("http", "https")


def _safe_url(url: str) -> bool:
    """http(s), or no scheme at all (a relative path or an anchor)."""
    m = _SCHEME.match(url.strip())
    return m is None or m.group(1).lower() in _SAFE_SCHEMES


def _slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "section"


def _drop_unsafe_links(state: StateCore) -> None:
    """A link whose target is not safe keeps its text and loses the link (both of its tags become empty text)."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        open_links: list[bool] = []
        children = block.children
        for i, tok in enumerate(children):
            if tok.type == "link_open":
                safe = _safe_url(str(tok.attrGet("href") or ""))
                open_links.append(safe)
                if not safe:
                    children[i] = Token("text", "", 0)
            elif tok.type == "link_close" and open_links and not open_links.pop():
                children[i] = Token("text", "", 0)


def _heading_ids(state: StateCore) -> None:
    """``id`` anchors on headings, from their plain text; repeated texts get ``-2``, ``-3``…"""
    seen: dict[str, int] = {}
    tokens = state.tokens
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and i + 1 < len(tokens):
            inline = tokens[i + 1]
            text = "".join(c.content for c in inline.children or () if c.type in ("text", "code_inline"))
            slug = _slug(text)
            seen[slug] = seen.get(slug, 0) + 1
            tok.attrSet("id", slug if seen[slug] == 1 else f"{slug}-{seen[slug]}")


def _fence(md: MarkdownIt) -> Any:
    default = md.renderer.rules["fence"]

    def fence(renderer: Any, tokens: list[Token], idx: int, options: Any, env: dict[str, Any]) -> str:
        tok = tokens[idx]
        hook = (env.get("fences") or {}).get(tok.info.strip().split(" ")[0])
        return hook(tok.content) if hook is not None else default(tokens, idx, options, env)

    return fence


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.add_render_rule("fence", _fence(md))
    md.validateLink = lambda url: True  # every link is parsed, then _drop_unsafe_links decides
    md.core.ruler.push("drop_unsafe_links", _drop_unsafe_links)
    md.core.ruler.push("heading_ids", _heading_ids)
    return md


_MD = _parser()


def to_html(text: str, fences: Mapping[str, Callable[[str], str]] | None = None) -> str:
    """Convert Markdown ``text`` to an HTML fragment (no trailing newline).

    ``fences`` maps a fenced block's language to the function that makes its HTML from the block's text.
    """
    return _MD.render(text, {"fences": dict(fences or {})}).rstrip("\n")
