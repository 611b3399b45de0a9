"""flask-smorest: `@blp.paginate(Page)` (post-pagination of a list) on a MethodView.

The body is a bare array; the page metadata is the `X-Pagination` header
({"total", "total_pages", "first_page", "last_page", "page", "next_page"...}).
Default page size 10, `page` and `page_size` query parameters.

    /items/
"""

import marshmallow as ma
from flask import Flask
from flask.views import MethodView
from flask_smorest import Api, Blueprint, Page

from interop_common import Interop, dataset, port_from_args

ITEMS = dataset()

app = Flask(__name__)
app.config["API_TITLE"] = "Items"
app.config["API_VERSION"] = "v1"
app.config["OPENAPI_VERSION"] = "3.0.2"
api = Api(app)

blp = Blueprint("items", __name__, url_prefix="/items", description="Items")


class ItemSchema(ma.Schema):
    id = ma.fields.Int()
    title = ma.fields.String()
    created = ma.fields.DateTime()
    updated_at = ma.fields.DateTime()


@blp.route("/")
class Items(MethodView):
    @blp.response(200, ItemSchema(many=True))
    @blp.paginate(Page)
    def get(self):
        return ITEMS


api.register_blueprint(blp)

LISTS = ["/items/"]

if __name__ == "__main__":
    interop = Interop(LISTS, lambda: [item["id"] for item in ITEMS])
    app.wsgi_app = interop.wsgi(app.wsgi_app)
    app.run(host="127.0.0.1", port=port_from_args(__doc__), threaded=True)
