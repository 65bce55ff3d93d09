"""A small Markdown-to-HTML converter for the rules documents (no dependency).

It covers what ``docs/rules/*.md`` use: headings, paragraphs, nested ordered
and unordered lists, block quotes, fenced code, tables, horizontal rules, and
inline code, bold, italics and links. Everything is HTML-escaped first, so a
document can never inject markup; links are kept only for http(s), relative
paths and anchors.

>>> to_html("# Title\\n\\n1. **Board.** Six *cells*.\\n   - `a1` first")
'<h1 id="title">Title</h1>\\n<ol>\\n<li><strong>Board.</strong> Six <em>cells</em>.\\n<ul>\\n<li><code>a1</code> first</li>\\n</ul>\\n</li>\\n</ol>'
"""

from __future__ import annotations

import html
import re

_LIST_ITEM = re.compile(r"^( *)([-*+]|\d{1,9}[.)])\s+(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_RULE = re.compile(r"^ {0,3}([-*_])( *\1){2,}\s*$")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def to_html(text: str) -> str:
    """Convert Markdown ``text`` to an HTML fragment."""
    lines = text.replace("\r\n", "\n").replace("\t", "    ").split("\n")
    return "\n".join(_blocks(lines))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _blocks(lines: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
            continue
        if stripped.startswith("```") or stripped.startswith("~~~"):
            fence = stripped[:3]
            body: list[str] = []
            i += 1
            while i < n and not lines[i].strip().startswith(fence):
                body.append(lines[i])
                i += 1
            i += 1
            out.append("<pre><code>" + html.escape("\n".join(body)) + "</code></pre>")
            continue
        m = _HEADING.match(stripped)
        if m:
            level = len(m.group(1))
            content = m.group(2)
            out.append(f'<h{level} id="{_slug(content)}">{_inline(content)}</h{level}>')
            i += 1
            continue
        if _RULE.match(line):
            out.append("<hr>")
            i += 1
            continue
        if stripped.startswith(">"):
            body = []
            while i < n and lines[i].strip().startswith(">"):
                body.append(re.sub(r"^\s*> ?", "", lines[i]))
                i += 1
            out.append("<blockquote>\n" + "\n".join(_blocks(body)) + "\n</blockquote>")
            continue
        if "|" in stripped and i + 1 < n and _TABLE_SEP.match(lines[i + 1]):
            header = _cells(stripped)
            i += 2
            rows = []
            while i < n and "|" in lines[i] and lines[i].strip():
                rows.append(_cells(lines[i].strip()))
                i += 1
            head = "".join(f"<th>{_inline(c)}</th>" for c in header)
            body_rows = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>\n" for r in rows)
            out.append(f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body_rows}</tbody>\n</table>")
            continue
        if _LIST_ITEM.match(line):
            html_list, i = _list(lines, i)
            out.append(html_list)
            continue
        para = [stripped]
        i += 1
        while i < n and lines[i].strip() and not _starts_block(lines[i]):
            para.append(lines[i].strip())
            i += 1
        out.append("<p>" + _inline("\n".join(para)) + "</p>")
    return out


def _starts_block(line: str) -> bool:
    s = line.strip()
    return bool(_HEADING.match(s) or _LIST_ITEM.match(line) or s.startswith((">", "```", "~~~")) or _RULE.match(line))


def _list(lines: list[str], i: int) -> tuple[str, int]:
    first = _LIST_ITEM.match(lines[i])
    assert first is not None
    base = len(first.group(1))
    ordered = first.group(2)[0].isdigit()
    tag = "ol" if ordered else "ul"
    start = ""
    if ordered:
        number = int(first.group(2)[:-1])
        if number != 1:
            start = f' start="{number}"'
    items: list[str] = []
    n = len(lines)
    while i < n:
        m = _LIST_ITEM.match(lines[i])
        if not m or len(m.group(1)) != base or m.group(2)[0].isdigit() != ordered:
            break
        content_indent = len(m.group(1)) + len(m.group(2)) + 1
        body = [m.group(3)]
        i += 1
        while i < n:
            line = lines[i]
            if not line.strip():
                # a blank line continues the item only if more indented content follows
                j = i + 1
                while j < n and not lines[j].strip():
                    j += 1
                if j < n and _indent(lines[j]) > base:
                    body.extend([""] * (j - i))
                    i = j
                    continue
                break
            mm = _LIST_ITEM.match(line)
            if mm and len(mm.group(1)) <= base:
                break
            if _indent(line) <= base and not mm and _starts_block(line):
                break
            body.append(line[min(content_indent, _indent(line)) :] if _indent(line) > base else line.strip())
            i += 1
        inner = _blocks(body)
        if len(inner) >= 1 and inner[0].startswith("<p>") and not any(x.startswith("<p>") for x in inner[1:]):
            inner[0] = inner[0][3:-4]
        items.append("<li>" + "\n".join(inner) + ("\n" if len(inner) > 1 else "") + "</li>")
        while i < n and not lines[i].strip():
            j = i
            while j < n and not lines[j].strip():
                j += 1
            nxt = _LIST_ITEM.match(lines[j]) if j < n else None
            if nxt and len(nxt.group(1)) == base:
                i = j
            else:
                break
    return f"<{tag}{start}>\n" + "\n".join(items) + f"\n</{tag}>", i


def _cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|"):
        row = row[:-1]
    return [c.strip() for c in row.split("|")]


def _slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "section"


_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])")


def _inline(text: str) -> str:
    codes: list[str] = []

    def keep_code(m: re.Match[str]) -> str:
        codes.append("<code>" + html.escape(m.group(1)) + "</code>")
        return f"\x00{len(codes) - 1}\x00"

    text = _CODE.sub(keep_code, text)
    text = html.escape(text, quote=True)

    def link(m: re.Match[str]) -> str:
        label, url = m.group(1), html.unescape(m.group(2))
        if re.match(r"^(https?://|/|#|\.{0,2}/?[\w.-]+(#[\w-]*)?$)", url) and not url.lower().startswith(
            ("javascript:", "data:")
        ):
            return f'<a href="{html.escape(url, quote=True)}">{label}</a>'
        return label

    text = _LINK.sub(link, text)
    text = _BOLD.sub(lambda m: f"<strong>{m.group(1) or m.group(2)}</strong>", text)
    text = _ITALIC.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", text)
    text = text.replace("  \n", "<br>\n")
    return re.sub(r"\x00(\d+)\x00", lambda m: codes[int(m.group(1))], text)
