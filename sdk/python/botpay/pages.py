"""Cursor pages and iteration over every page of a list.

Every list of the service pages with cursors: a page holds at most
``limit`` items (1-100) and, when more follow, a ``next_cursor`` asking for
the next page. Cursors are opaque and only good for the list, caller and
filters they came from (400 invalid_cursor otherwise).
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Iterator, TypeVar

from .errors import BotpayError

T = TypeVar("T")

# The iterators ask for the largest page, for the fewest requests.
ITERATOR_PAGE_SIZE = 100


@dataclass
class Page(Generic[T]):
    """One page of a list. ``raw`` is the whole answer (``total`` of the
    skills catalogue, for example)."""

    items: list[T]
    has_more: bool = False
    next_cursor: str | None = None
    raw: Any = field(default=None, repr=False)

    def __iter__(self) -> Iterator[T]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def page_of(answer: Any, items_field: str) -> Page[Any]:
    """Reads a page answer: its items under items_field, beside has_more and next_cursor."""
    answer = answer or {}
    next_cursor = answer.get("next_cursor") or None
    return Page(list(answer.get(items_field) or []), bool(answer.get("has_more", next_cursor is not None)),
                next_cursor, answer)


def iterate(fetch: Callable[[int, str | None], Page[T]]) -> Iterator[T]:
    """Yields every item of a list, page after page, from the first page to the last.

    ``fetch(limit, cursor)`` reads one page. Stops with BotpayError when the
    service answers the same cursor twice, rather than loop forever.
    """
    cursor: str | None = None
    while True:
        page = fetch(ITERATOR_PAGE_SIZE, cursor)
        yield from page.items
        if not page.next_cursor:
            return
        if page.next_cursor == cursor:
            raise BotpayError("botpay: the service answered the same next_cursor twice; paging stopped")
        cursor = page.next_cursor


def next_cursor_of_link(link_header: str) -> str | None:
    """The cursor of the rel="next" target of a Link header (RFC 8288), None without one."""
    for link in link_header.split(","):
        target, _, params = link.strip().partition(";")
        target = target.strip()
        if not (target.startswith("<") and target.endswith(">")):
            continue
        if not _is_next(params):
            continue
        query = urllib.parse.urlparse(target[1:-1]).query
        cursors = urllib.parse.parse_qs(query).get("cursor")
        if cursors:
            return cursors[0]
    return None


def _is_next(params: str) -> bool:
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "rel" and "next" in value.strip().strip('"').lower().split():
            return True
    return False
