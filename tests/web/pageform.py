"""A form read from a page as a browser would post it (the boxes as filled, the checked
radios, the selected options), for tests that post a page's form back as it stands."""

from __future__ import annotations

import html
from html.parser import HTMLParser


class PageForm(HTMLParser):
    """What a browser would post from a page's round form (``form.round-form``), or from the
    form that posts to ``action`` (the page's own address, whose forms may name no action)."""

    def __init__(self, body: str, action: str | None = None) -> None:
        super().__init__()
        self.action = action
        self.fields: dict[str, str] = {}
        self._in_form = False
        self._select: str | None = None
        self._textarea: str | None = None
        self.feed(body)

    def handle_starttag(self, tag, attrs):
        found = {name: value or "" for name, value in attrs}
        if (
            tag == "form"
            and found.get("method") == "post"
            and (
                (html.unescape(found.get("action", "")).split("#")[0] or self.action) == self.action
                if self.action
                else "round-form" in found.get("class", "")
            )
        ):
            self._in_form = True
        if not self._in_form:
            return
        name = found.get("name")
        if tag == "input" and name:
            kind = found.get("type", "text")
            if kind in ("radio", "checkbox"):
                if "checked" in found:
                    self.fields[name] = found.get("value", "on")
            elif kind not in ("submit", "button"):
                self.fields[name] = found.get("value", "")
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select:
            if "selected" in found or self._select not in self.fields:
                self.fields[self._select] = found.get("value", "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.fields[name] = ""

    def handle_data(self, data):
        if self._textarea:
            self.fields[self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._in_form = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            if self._textarea:
                self.fields[self._textarea] = (
                    self.fields[self._textarea].removeprefix("\r\n").removeprefix("\n")
                )
            self._textarea = None


def as_posted(body: str, **changes: str) -> dict[str, str]:
    return {**PageForm(body).fields, "action": "save", **changes}
