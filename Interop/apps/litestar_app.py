"""Litestar: its classic, offset and cursor paginators, each on a handler as in Litestar's docs.

The handlers take the query parameters the docs' examples take, all required but the
cursor, so the URL to sync names the page size (50 here):

    /items/classic?page_size=50&current_page=1   ClassicPagination
                                                 {items, page_size, current_page, total_pages}
    /items/offset?limit=50&offset=0              OffsetPagination {items, limit, offset, total}
    /items/cursor?results_per_page=50            CursorPagination {items, results_per_page, cursor}

As the docs' paginators do, `get_total` of the classic one gives the page count and
the cursor one answers the id of the last item it returns as the next cursor.
"""

from dataclasses import dataclass
from datetime import datetime
from itertools import islice
from math import ceil
from typing import List, Optional, Tuple

import uvicorn
from litestar import Litestar, get
from litestar.pagination import (
    AbstractSyncClassicPaginator,
    AbstractSyncCursorPaginator,
    AbstractSyncOffsetPaginator,
    ClassicPagination,
    CursorPagination,
    OffsetPagination,
)

from interop_common import Interop, dataset, port_from_args


@dataclass
class Item:
    id: int
    title: str
    created: datetime
    updated_at: datetime


DATA = [Item(**item) for item in dataset()]


class ItemClassicPaginator(AbstractSyncClassicPaginator[Item]):
    def get_total(self, page_size: int) -> int:
        return ceil(len(DATA) / page_size)

    def get_items(self, page_size: int, current_page: int) -> List[Item]:
        start = (current_page - 1) * page_size
        return DATA[start : start + page_size]


class ItemOffsetPaginator(AbstractSyncOffsetPaginator[Item]):
    def get_total(self) -> int:
        return len(DATA)

    def get_items(self, limit: int, offset: int) -> List[Item]:
        return list(islice(islice(DATA, offset, None), limit))


class ItemCursorPaginator(AbstractSyncCursorPaginator[int, Item]):
    def get_items(self, cursor: Optional[int], results_per_page: int) -> Tuple[List[Item], Optional[int]]:
        after = [item for item in DATA if cursor is None or item.id > cursor]
        results = after[:results_per_page]
        return results, (results[-1].id if results else None)


classic_paginator = ItemClassicPaginator()
offset_paginator = ItemOffsetPaginator()
cursor_paginator = ItemCursorPaginator()


@get("/items/classic", sync_to_thread=False)
def items_classic(page_size: int, current_page: int) -> ClassicPagination[Item]:
    return classic_paginator(page_size=page_size, current_page=current_page)


@get("/items/offset", sync_to_thread=False)
def items_offset(limit: int, offset: int) -> OffsetPagination[Item]:
    return offset_paginator(limit=limit, offset=offset)


@get("/items/cursor", sync_to_thread=False)
def items_cursor(cursor: Optional[int], results_per_page: int) -> CursorPagination[int, Item]:
    return cursor_paginator(cursor=cursor, results_per_page=results_per_page)


app = Litestar(route_handlers=[items_classic, items_offset, items_cursor])

LISTS = ["/items/classic", "/items/offset", "/items/cursor"]

if __name__ == "__main__":
    interop = Interop(LISTS, lambda: [item.id for item in DATA])
    uvicorn.run(interop.asgi(app), host="127.0.0.1", port=port_from_args(__doc__), log_level="warning")
