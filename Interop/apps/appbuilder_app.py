"""Flask-AppBuilder: a `ModelRestApi` over a Flask-SQLAlchemy model, as in its REST API docs,
readable without a login through the builtin Public role (`AUTH_ROLE_PUBLIC`, `FAB_ROLES`).

    /api/v1/item/   {"count": 1234, "ids": [...], "result": [...20], "list_columns": [...],
                     "label_columns": {...}, "order_columns": [...], ...}

Its page and page size travel inside one rison-encoded query parameter:
`?q=(page:1,page_size:20)`, pages from 0, 20 a page by default, at most 100
(`FAB_API_MAX_PAGE_SIZE`: a larger page_size is cut to it). Other query parameters, such
as ?page=2, are ignored: the first page comes back.
"""

import os
from datetime import datetime

from flask import Flask
from flask_appbuilder import AppBuilder, Model, ModelRestApi
from flask_appbuilder.models.sqla.interface import SQLAInterface
from flask_appbuilder.utils.legacy import get_sqla_class
from sqlalchemy import Column, DateTime, Integer, String

from interop_common import Interop, data_dir, dataset, port_from_args

DATABASE = os.path.join(data_dir(), "appbuilder.sqlite3")
if os.path.exists(DATABASE):
    os.remove(DATABASE)

app = Flask(__name__)
app.config.update(
    SECRET_KEY="interop",
    SQLALCHEMY_DATABASE_URI=f"sqlite:///{DATABASE}",
    AUTH_ROLE_PUBLIC="Public",
    FAB_ROLES={"Public": [["ItemApi", "can_get"]]},
    FAB_API_MAX_PAGE_SIZE=100,
    FAB_ADD_SECURITY_VIEWS=False,
)
db = get_sqla_class()()
db.init_app(app)


class Item(Model):
    __tablename__ = "item"

    id = Column(Integer, primary_key=True)
    title = Column(String(100), nullable=False)
    created = Column(DateTime(timezone=True), nullable=False)
    updated_at = Column(DateTime(timezone=True), nullable=False)


class ItemApi(ModelRestApi):
    resource_name = "item"
    datamodel = SQLAInterface(Item)
    list_columns = ["id", "title", "created", "updated_at"]


with app.app_context():
    appbuilder = AppBuilder(app, db.session)
    appbuilder.add_api(ItemApi)
    db.create_all()
    db.session.add_all(Item(**item) for item in dataset())
    db.session.commit()


def ids():
    with app.app_context():
        return [row.id for row in db.session.query(Item.id).order_by(Item.id)]


LISTS = ["/api/v1/item/"]

if __name__ == "__main__":
    interop = Interop(LISTS, ids)
    app.wsgi_app = interop.wsgi(app.wsgi_app)
    app.run(host="127.0.0.1", port=port_from_args(__doc__), threaded=True)
