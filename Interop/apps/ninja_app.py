"""Django Ninja: `@paginate` with its LimitOffsetPagination (the default) and PageNumberPagination.

Both answer {"items": [...], "count": N}; the page size is NINJA_PAGINATION_PER_PAGE (100).

    /api/items/limit-offset   @paginate                          (limit, offset)
    /api/items/page-number    @paginate(PageNumberPagination)    (page, page_size)
"""

from typing import List

import django_setup
from interop_common import port_from_args

django_setup.configure("ninja", urlconf=__name__, installed_apps=[])

from django.urls import path  # noqa: E402
from ninja import ModelSchema, NinjaAPI  # noqa: E402
from ninja.pagination import PageNumberPagination, paginate  # noqa: E402

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


urlpatterns = [path("api/", api.urls)]

LISTS = ["/api/items/limit-offset", "/api/items/page-number"]

if __name__ == "__main__":
    django_setup.serve(port_from_args(__doc__), LISTS)
