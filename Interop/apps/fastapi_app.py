"""FastAPI Pagination: its pages over a list, with `add_pagination`, and its cursor page over
SQLAlchemy (the cursor needs its SQLAlchemy extension, which pages by keyset).

    /items/page                  Page            (page, size; default size 50)
    /items/limit-offset          LimitOffsetPage (limit, offset; default limit 50)
    /items/links                 fastapi_pagination.links.Page: Page with
                                 "links": {first, last, self, next, prev} (relative URLs)
    /items/capped-limit-offset   LimitOffsetPage customized as the docs show
                                 (`CustomizedPage[..., UseParamsFields(...)]`) to FastAPI's
                                 tutorial limit, `Query(100, ge=1, le=100)`: 100 a page,
                                 and 422 to a limit above 100
    /items/cursor                CursorPage (cursor, size; default size 50), from
                                 fastapi_pagination.ext.sqlalchemy's paginate: {"items",
                                 "current_page", "current_page_backwards", "previous_page",
                                 "next_page"}, the `*_page` members opaque cursors sent back
                                 as ?cursor=

And FastAPI's own tutorial lists (no paginator library; "SQL (Relational) Databases"): a
bare array, no total, no link, the end a short page.

    /heroes/                     `offset: int = 0, limit: Annotated[int, Query(le=100)] = 100`:
                                 100 a page, 422 to a limit above 100
    /users/                      the tutorial's earlier `skip: int = 0, limit: int = 100`
"""

import os
from datetime import datetime
from typing import Annotated, List, TypeVar

import uvicorn
from fastapi import Depends, FastAPI, Query
from fastapi_pagination import LimitOffsetPage, Page, add_pagination, paginate
from fastapi_pagination.cursor import CursorPage
from fastapi_pagination.customization import CustomizedPage, UseParamsFields
from fastapi_pagination.ext.sqlalchemy import paginate as sqlalchemy_paginate
from fastapi_pagination.links import Page as LinksPage
from pydantic import BaseModel, ConfigDict
from sqlalchemy import DateTime, String, create_engine, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from interop_common import Interop, data_dir, dataset, port_from_args

T = TypeVar("T")


class ItemOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    title: str
    created: datetime
    updated_at: datetime


ITEMS = [ItemOut(**item) for item in dataset()]

CappedLimitOffsetPage = CustomizedPage[
    LimitOffsetPage[T],
    UseParamsFields(limit=Query(100, ge=1, le=100)),
]


class Base(DeclarativeBase):
    pass


class ItemRow(Base):
    __tablename__ = "items"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(100))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def database():
    path = os.path.join(data_dir(), "fastapi.sqlite3")
    if os.path.exists(path):
        os.remove(path)
    engine = create_engine(f"sqlite:///{path}", connect_args={"check_same_thread": False})
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        session.add_all(ItemRow(**item) for item in dataset())
        session.commit()
    return engine


ENGINE = database()


def get_db():
    with Session(ENGINE) as session:
        yield session

app = FastAPI()
add_pagination(app)


@app.get("/items/page")
async def items_page() -> Page[ItemOut]:
    return paginate(ITEMS)


@app.get("/items/limit-offset")
async def items_limit_offset() -> LimitOffsetPage[ItemOut]:
    return paginate(ITEMS)


@app.get("/items/links")
async def items_links() -> LinksPage[ItemOut]:
    return paginate(ITEMS)


@app.get("/items/capped-limit-offset")
async def items_capped_limit_offset() -> CappedLimitOffsetPage[ItemOut]:
    return paginate(ITEMS)


@app.get("/items/cursor")
def items_cursor(db: Session = Depends(get_db)) -> CursorPage[ItemOut]:
    return sqlalchemy_paginate(db, select(ItemRow).order_by(ItemRow.id))


@app.get("/heroes/")
def read_heroes(
    db: Session = Depends(get_db), offset: int = 0, limit: Annotated[int, Query(le=100)] = 100
) -> List[ItemOut]:
    return db.scalars(select(ItemRow).order_by(ItemRow.id).offset(offset).limit(limit)).all()


@app.get("/users/")
def read_users(db: Session = Depends(get_db), skip: int = 0, limit: int = 100) -> List[ItemOut]:
    return db.scalars(select(ItemRow).order_by(ItemRow.id).offset(skip).limit(limit)).all()


LISTS = [
    "/heroes/",
    "/users/",
    "/items/page",
    "/items/limit-offset",
    "/items/links",
    "/items/capped-limit-offset",
    "/items/cursor",
]

if __name__ == "__main__":
    interop = Interop(LISTS, lambda: [item.id for item in ITEMS])
    uvicorn.run(interop.asgi(app), host="127.0.0.1", port=port_from_args(__doc__), log_level="warning")
