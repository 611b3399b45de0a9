"""FastAPI Pagination: `Page` and `LimitOffsetPage` over a list, with `add_pagination`.

    /items/page           Page            (page, size; default size 50)
    /items/limit-offset   LimitOffsetPage (limit, offset; default limit 50)
"""

from datetime import datetime

import uvicorn
from fastapi import FastAPI
from fastapi_pagination import LimitOffsetPage, Page, add_pagination, paginate
from pydantic import BaseModel

from interop_common import Interop, dataset, port_from_args


class ItemOut(BaseModel):
    id: int
    title: str
    created: datetime
    updated_at: datetime


ITEMS = [ItemOut(**item) for item in dataset()]

app = FastAPI()
add_pagination(app)


@app.get("/items/page")
async def items_page() -> Page[ItemOut]:
    return paginate(ITEMS)


@app.get("/items/limit-offset")
async def items_limit_offset() -> LimitOffsetPage[ItemOut]:
    return paginate(ITEMS)


LISTS = ["/items/page", "/items/limit-offset"]

if __name__ == "__main__":
    interop = Interop(LISTS, lambda: [item.id for item in ITEMS])
    uvicorn.run(interop.asgi(app), host="127.0.0.1", port=port_from_args(__doc__), log_level="warning")
