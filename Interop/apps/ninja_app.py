"""Django Ninja: `@paginate` with its LimitOffsetPagination (the default) and PageNumberPagination.

Both answer {"items": [...], "count": N}; the page size is NINJA_PAGINATION_PER_PAGE (100).
And its CursorPagination, {"previous", "next", "results"} with `next` a full URL carrying
an opaque ?cursor= (ordering its default "-pk": newest first; 100 a page).

    /api/items/limit-offset   @paginate                          (limit, offset)
    /api/items/page-number    @paginate(PageNumberPagination)    (page, page_size)
    /api/items/cursor         @paginate(CursorPagination)        (cursor, page_size)

And the CRUD of Ninja's tutorial ("CRUD example"; PATCH as its `PatchDict` guide shows) on
a `Router`, which takes writes. As in the tutorial, a POST answers {"id": N} and PUT,
PATCH and DELETE answer {"success": true}; Idempotency-Key and If-Match are ignored.

    /api/items               GET (the list, @paginate), POST
    /api/items/{item_id}     GET, PUT, PATCH, DELETE
"""

from typing import List

import django_setup
from interop_common import port_from_args

django_setup.configure("ninja", urlconf=__name__, installed_apps=[])

from django.shortcuts import get_object_or_404  # noqa: E402
from django.urls import path  # noqa: E402
from ninja import ModelSchema, NinjaAPI, PatchDict, Router, Schema  # noqa: E402
from ninja.pagination import CursorPagination, PageNumberPagination, paginate  # noqa: E402

from django_items.models import Item  # noqa: E402

api = NinjaAPI()


class ItemSchema(ModelSchema):
    class Meta:
        model = Item
        fields = ["id", "title", "created", "updated_at"]


@api.get("/items/limit-offset", response=List[ItemSchema])
@paginate
def items_limit_offset(request):
    return Item.objects.all()


@api.get("/items/page-number", response=List[ItemSchema])
@paginate(PageNumberPagination)
def items_page_number(request):
    return Item.objects.all()


@api.get("/items/cursor", response=List[ItemSchema])
@paginate(CursorPagination)
def items_cursor(request):
    return Item.objects.all()


router = Router()


class ItemIn(Schema):
    title: str


@router.post("/items")
def create_item(request, payload: ItemIn):
    item = Item.objects.create(**payload.dict())
    return {"id": item.id}


@router.get("/items", response=List[ItemSchema])
@paginate
def list_items(request):
    return Item.objects.all()


@router.get("/items/{item_id}", response=ItemSchema)
def get_item(request, item_id: int):
    return get_object_or_404(Item, id=item_id)


@router.put("/items/{item_id}")
def update_item(request, item_id: int, payload: ItemIn):
    item = get_object_or_404(Item, id=item_id)
    for attr, value in payload.dict().items():
        setattr(item, attr, value)
    item.save()
    return {"success": True}


@router.patch("/items/{item_id}")
def patch_item(request, item_id: int, payload: PatchDict[ItemIn]):
    item = get_object_or_404(Item, id=item_id)
    for attr, value in payload.items():
        setattr(item, attr, value)
    item.save()
    return {"success": True}


@router.delete("/items/{item_id}")
def delete_item(request, item_id: int):
    item = get_object_or_404(Item, id=item_id)
    item.delete()
    return {"success": True}


api.add_router("/", router)

urlpatterns = [path("api/", api.urls)]

LISTS = ["/api/items/limit-offset", "/api/items/page-number", "/api/items/cursor"]

if __name__ == "__main__":
    django_setup.serve(port_from_args(__doc__), [*LISTS, "/api/items"], writable=True)
