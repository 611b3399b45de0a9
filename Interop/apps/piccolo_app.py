"""Piccolo API: `PiccoloCRUD` over a Piccolo table on SQLite, mounted on a Starlette router
as Piccolo's docs show, read-only.

    /items/   {"rows": [...15]}, newest first (its default ordering, -id), paged by
              ?__page=N (from 1) and ?__page_size=N (15 by default, at most 1000); no total
              in the body (PiccoloCRUD answers it at /items/count/), no link; an unknown
              parameter, such as ?page=2, is read as a filter on a column and answered
              400 "page isn't a valid field name"
"""

import os

import uvicorn
from piccolo.columns import Timestamptz, Varchar
from piccolo.engine.sqlite import SQLiteEngine
from piccolo.table import Table
from piccolo_api.crud.endpoints import PiccoloCRUD
from starlette.routing import Mount, Router

from interop_common import Interop, data_dir, dataset, port_from_args

DATABASE = os.path.join(data_dir(), "piccolo.sqlite3")
if os.path.exists(DATABASE):
    os.remove(DATABASE)
DB = SQLiteEngine(path=DATABASE)


class Item(Table, db=DB):
    title = Varchar(length=100)
    created = Timestamptz()
    updated_at = Timestamptz()


Item.create_table().run_sync()
Item.insert(*[Item(**item) for item in dataset()]).run_sync()

app = Router([Mount(path="/items", app=PiccoloCRUD(table=Item, read_only=True))])

LISTS = ["/items/"]


def ids():
    return [row["id"] for row in Item.select(Item.id).order_by(Item.id).run_sync()]


if __name__ == "__main__":
    interop = Interop(LISTS, ids)
    uvicorn.run(interop.asgi(app), host="127.0.0.1", port=port_from_args(__doc__), log_level="warning")
