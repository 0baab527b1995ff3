"""Text shown as itself in Markdown: names and errors in the reports (spec CLI-OUTPUT, CONF-REPORT)."""

from __future__ import annotations

#: What Markdown (and the HTML it becomes) could read as markup in a name: HTML's three specials
#: as entities; the backslash, code spans, links and images, and table cells escaped.
_MARKDOWN_SPECIAL = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", **{c: f"\\{c}" for c in "\\`[]|"}})


def markdown_text(text: str) -> str:
    """CLI-OUTPUT. ``text`` (a file name, a target's name or error) shown as itself in Markdown and in
    the HTML it is rendered to: no tag (``<script>``, ``<img onerror>``), no link or image
    (``[x](javascript:...)``, ``<javascript:...>``), no code span, no extra table cell.

    >>> markdown_text("<img src=x onerror=alert(1)> [a](javascript:b) | c")
    '&lt;img src=x onerror=alert(1)&gt; \\\\[a\\\\](javascript:b) \\\\| c'
    """
    return text.translate(_MARKDOWN_SPECIAL)
