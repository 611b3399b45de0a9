"""Kinto (a JSON storage service), a collection's records, on its memory backend.

    /v1/buckets/interop/collections/items/records
        {"data": [{"id": "1234", "last_modified": …, "title": …, …}...100]}
        Next-Page: http://127.0.0.1:PORT/v1/buckets/interop/collections/items/records?_limit=100&_token=…

`kinto.paginate_by = 100` (Kinto's setting; without it the whole collection comes in one
answer); records newest first (`-last_modified`, Kinto's default sort). The next page is
given only in the `Next-Page` header, a URL with an opaque `_token`; the last page has no
such header. The body has no total and no link (a HEAD answers `Total-Objects`). The bucket
is readable by everyone (`system.Everyone`), so no credentials are needed.

Kinto is a Pyramid WSGI app (`kinto.main`), served here in-process; the bucket, the
collection and the 1 234 records are written through its storage and permission backends.
"""

import os

from pyramid.config import Configurator

import kinto
from kinto.core import initialization  # noqa: F401 (imported for kinto.main)
from kinto.core.authorization import RouteFactory
from interop_common import Interop, dataset, jsonable, port_from_args, serve_wsgi

SETTINGS = {
    "kinto.storage_backend": "kinto.core.storage.memory",
    "kinto.cache_backend": "kinto.core.cache.memory",
    "kinto.permission_backend": "kinto.core.permission.memory",
    "kinto.userid_hmac_secret": "interop",
    "kinto.paginate_by": "100",
    "kinto.http_host": "",
    "multiauth.policies": "basicauth",
}
BUCKET = "/buckets/interop"
COLLECTION = BUCKET + "/collections/items"


def make_app():
    config = Configurator(settings=dict(SETTINGS), root_factory=RouteFactory)
    app = kinto.main({}, config=config)
    return app, config.registry


def seed(registry):
    storage, permission = registry.storage, registry.permission
    storage.create(resource_name="bucket", parent_id="", obj={"id": "interop"})
    permission.replace_object_permissions(BUCKET, {"read": ["system.Everyone"]})
    storage.create(resource_name="collection", parent_id=BUCKET, obj={"id": "items"})
    for item in dataset():
        record = dict(jsonable(item), id=str(item["id"]))
        storage.create(resource_name="record", parent_id=COLLECTION, obj=record)


def ids(registry):
    records = registry.storage.list_all(resource_name="record", parent_id=COLLECTION)
    return [record["id"] for record in records]


LISTS = ["/v1" + COLLECTION + "/records"]

if __name__ == "__main__":
    port = port_from_args(__doc__)
    app, registry = make_app()
    seed(registry)
    interop = Interop(LISTS, lambda: ids(registry))
    serve_wsgi(interop.wsgi(app), port)
