"""APIFlask: Flask-SQLAlchemy's `paginate()` and `pagination_builder`, as in APIFlask's pagination example.

    /items   {"items": [...], "pagination": {"page", "per_page", "pages", "total",
                                             "current", "next", "prev", "first", "last"}}
Query parameters `page` (default 1) and `per_page` (default 20, at most 30).
"""

import os

from apiflask import APIFlask, PaginationSchema, Schema, pagination_builder
from apiflask.fields import DateTime, Integer, List, Nested, String
from apiflask.validators import Range
from flask_sqlalchemy import SQLAlchemy

from interop_common import Interop, data_dir, dataset, port_from_args

app = APIFlask(__name__)
database = os.path.join(data_dir(), "apiflask.sqlite3")
if os.path.exists(database):
    os.remove(database)
app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{database}"

db = SQLAlchemy(app)


class ItemModel(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    title = db.Column(db.String(100))
    created = db.Column(db.DateTime)
    updated_at = db.Column(db.DateTime)


with app.app_context():
    db.create_all()
    db.session.add_all(ItemModel(**item) for item in dataset())
    db.session.commit()


class ItemQuerySchema(Schema):
    page = Integer(load_default=1)
    per_page = Integer(load_default=20, validate=Range(max=30))


class ItemOutSchema(Schema):
    id = Integer()
    title = String()
    created = DateTime()
    updated_at = DateTime()


class ItemsOutSchema(Schema):
    items = List(Nested(ItemOutSchema))
    pagination = Nested(PaginationSchema)


@app.get("/items")
@app.input(ItemQuerySchema, location="query")
@app.output(ItemsOutSchema)
def get_items(query_data):
    pagination = ItemModel.query.paginate(page=query_data["page"], per_page=query_data["per_page"])
    return {"items": pagination.items, "pagination": pagination_builder(pagination)}


def ids():
    with app.app_context():
        return [row.id for row in db.session.query(ItemModel.id).order_by(ItemModel.id)]


LISTS = ["/items"]

if __name__ == "__main__":
    interop = Interop(LISTS, ids)
    app.wsgi_app = interop.wsgi(app.wsgi_app)
    app.run(host="127.0.0.1", port=port_from_args(__doc__), threaded=True)
