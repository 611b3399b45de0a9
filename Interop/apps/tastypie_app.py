"""Django Tastypie: a `ModelResource` on an `Api`, as in Tastypie's tutorial, paged by its
stock `Paginator` (limit 20 by default, at most 1000, `max_limit`).

    /api/v1/item/   {"meta": {"limit": 20, "next": "/api/v1/item/?limit=20&offset=20",
                              "offset": 0, "previous": null, "total_count": 1234},
                     "objects": [...20]}

`next` is a path without the host; each object also has its `resource_uri`.
"""

import django_setup
from interop_common import port_from_args

django_setup.configure(
    "tastypie",
    urlconf=__name__,
    installed_apps=["django.contrib.contenttypes", "django.contrib.auth", "tastypie"],
)

from django.urls import include, path  # noqa: E402
from tastypie.api import Api  # noqa: E402
from tastypie.resources import ModelResource  # noqa: E402

from django_items.models import Item  # noqa: E402


class ItemResource(ModelResource):
    class Meta:
        queryset = Item.objects.all()
        resource_name = "item"
        allowed_methods = ["get"]


v1_api = Api(api_name="v1")
v1_api.register(ItemResource())

urlpatterns = [path("api/", include(v1_api.urls))]

LISTS = ["/api/v1/item/"]

if __name__ == "__main__":
    django_setup.serve(port_from_args(__doc__), LISTS)
