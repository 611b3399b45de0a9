"""flask-smorest: `@blp.paginate(Page)` (post-pagination of a list) on a MethodView, and
item routes that take writes behind `@blp.etag`, as the ETag section of its docs shows.

The list's body is a bare array; the page metadata is the `X-Pagination` header
({"total", "total_pages", "first_page", "last_page", "page", "next_page"...}).
Default page size 10, `page` and `page_size` query parameters.

    /items/            GET (the list), POST (a new item: 201 and the item, with its ETag)
    /items/{id}        GET (the item, with its ETag; If-None-Match gives 304),
                       PUT, PATCH, DELETE: If-Match required (428 without it,
                       412 when it is not the item's ETag, checked by `blp.check_etag`)

Items are routed without a trailing slash, as in the docs.
"""

import threading
from datetime import datetime, timezone

import marshmallow as ma
from flask import Flask
from flask.views import MethodView
from flask_smorest import Api, Blueprint, Page, abort

from interop_common import Interop, Store, dataset, jsonable, port_from_args

ITEMS = dataset()
LOCK = threading.Lock()

app = Flask(__name__)
app.config["API_TITLE"] = "Items"
app.config["API_VERSION"] = "v1"
app.config["OPENAPI_VERSION"] = "3.0.2"
api = Api(app)

blp = Blueprint("items", __name__, url_prefix="/items", description="Items")


class ItemSchema(ma.Schema):
    id = ma.fields.Int(dump_only=True)
    title = ma.fields.String(required=True)
    created = ma.fields.DateTime(dump_only=True)
    updated_at = ma.fields.DateTime(dump_only=True)


def get_item(item_id):
    for item in ITEMS:
        if item["id"] == item_id:
            return item
    return None


def get_item_or_404(item_id):
    item = get_item(item_id)
    if item is None:
        abort(404, message="Item not found.")
    return item


@blp.route("/")
class Items(MethodView):
    @blp.response(200, ItemSchema(many=True))
    @blp.paginate(Page)
    def get(self):
        return ITEMS

    @blp.etag
    @blp.arguments(ItemSchema)
    @blp.response(201, ItemSchema)
    def post(self, new_data):
        with LOCK:
            now = datetime.now(timezone.utc)
            item = {"id": max((i["id"] for i in ITEMS), default=0) + 1, "created": now, "updated_at": now}
            item.update(new_data)
            ITEMS.append(item)
        return item


@blp.route("/<int:item_id>")
class ItemById(MethodView):
    @blp.etag
    @blp.response(200, ItemSchema)
    def get(self, item_id):
        return get_item_or_404(item_id)

    @blp.etag
    @blp.arguments(ItemSchema)
    @blp.response(200, ItemSchema)
    def put(self, update_data, item_id):
        item = get_item_or_404(item_id)
        blp.check_etag(item, ItemSchema)
        item.update(update_data)
        return item

    @blp.etag
    @blp.arguments(ItemSchema(partial=True))
    @blp.response(200, ItemSchema)
    def patch(self, update_data, item_id):
        item = get_item_or_404(item_id)
        blp.check_etag(item, ItemSchema)
        item.update(update_data)
        return item

    @blp.etag
    @blp.response(204)
    def delete(self, item_id):
        item = get_item_or_404(item_id)
        blp.check_etag(item, ItemSchema)
        with LOCK:
            ITEMS.remove(item)


api.register_blueprint(blp)


def store():
    """The middleware's `Store` over ITEMS."""

    def item(item_id):
        found = get_item(item_id)
        return jsonable(found) if found else None

    def change(item_id, members):
        found = get_item(item_id)
        if found is None:
            return None
        found.update(members)
        return jsonable(found)

    def find(title):
        return [jsonable(found) for found in ITEMS if found["title"] == title]

    return Store(item=item, set=change, find=find)


LISTS = ["/items/"]

if __name__ == "__main__":
    interop = Interop(LISTS, lambda: [item["id"] for item in ITEMS], store=store())
    app.wsgi_app = interop.wsgi(app.wsgi_app)
    app.run(host="127.0.0.1", port=port_from_args(__doc__), threaded=True)
