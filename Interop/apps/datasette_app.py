"""Datasette serving an SQLite table; its JSON API pages by `next` / `next_url` (100 rows a page).

    /data/items.json?_shape=objects    {"rows": [...], "next": ..., "next_url": ..., ...}
"""

import os
import sqlite3

import uvicorn
from datasette.app import Datasette

from interop_common import Interop, data_dir, dataset, port_from_args


def create_database(path):
    if os.path.exists(path):
        os.remove(path)
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT, created TEXT, updated_at TEXT)"
        )
        db.executemany(
            "INSERT INTO items VALUES (?, ?, ?, ?)",
            [
                (item["id"], item["title"], item["created"].isoformat(), item["updated_at"].isoformat())
                for item in dataset()
            ],
        )


def ids(path):
    with sqlite3.connect(path) as db:
        return [row[0] for row in db.execute("SELECT id FROM items ORDER BY id")]


LISTS = ["/data/items.json"]

if __name__ == "__main__":
    database = os.path.join(data_dir(), "data.db")
    create_database(database)
    interop = Interop(LISTS, lambda: ids(database))
    app = Datasette([database]).app()
    uvicorn.run(interop.asgi(app), host="127.0.0.1", port=port_from_args(__doc__), log_level="warning")
