"""Django REST framework JSON:API: JsonApiPageNumberPagination and JsonApiLimitOffsetPagination.

Settings as in the package's usage docs (PAGE_SIZE 10, its renderer, parsers and
query-parameter validation).

    /jsonapi/page-number     JsonApiPageNumberPagination (page[number], page[size])
    /jsonapi/limit-offset    JsonApiLimitOffsetPagination (page[limit], page[offset])
"""

import django_setup
from interop_common import port_from_args

django_setup.configure(
    "drf_jsonapi",
    urlconf=__name__,
    installed_apps=[
        "django.contrib.contenttypes",
        "django.contrib.auth",
        "rest_framework",
        "rest_framework_json_api",
    ],
    REST_FRAMEWORK={
        "PAGE_SIZE": 10,
        "EXCEPTION_HANDLER": "rest_framework_json_api.exceptions.exception_handler",
        "DEFAULT_PAGINATION_CLASS": "rest_framework_json_api.pagination.JsonApiPageNumberPagination",
        "DEFAULT_PARSER_CLASSES": (
            "rest_framework_json_api.parsers.JSONParser",
            "rest_framework.parsers.FormParser",
            "rest_framework.parsers.MultiPartParser",
        ),
        "DEFAULT_RENDERER_CLASSES": (
            "rest_framework_json_api.renderers.JSONRenderer",
            "rest_framework.renderers.BrowsableAPIRenderer",
        ),
        "DEFAULT_METADATA_CLASS": "rest_framework_json_api.metadata.JSONAPIMetadata",
        "DEFAULT_FILTER_BACKENDS": (
            "rest_framework_json_api.filters.QueryParameterValidationFilter",
            "rest_framework_json_api.filters.OrderingFilter",
            "rest_framework.filters.SearchFilter",
        ),
        "SEARCH_PARAM": "filter[search]",
        "TEST_REQUEST_RENDERER_CLASSES": ("rest_framework_json_api.renderers.JSONRenderer",),
        "TEST_REQUEST_DEFAULT_FORMAT": "vnd.api+json",
    },
)

from django.urls import path  # noqa: E402
from rest_framework import generics  # noqa: E402
from rest_framework_json_api import pagination, serializers  # noqa: E402

from django_items.models import Item  # noqa: E402


class ItemSerializer(serializers.ModelSerializer):
    class Meta:
        model = Item
        fields = ["title", "created", "updated_at"]


def item_list(paginator):
    return generics.ListAPIView.as_view(
        queryset=Item.objects.all(), serializer_class=ItemSerializer, pagination_class=paginator
    )


LISTS = {
    "/jsonapi/page-number": pagination.JsonApiPageNumberPagination,
    "/jsonapi/limit-offset": pagination.JsonApiLimitOffsetPagination,
}

urlpatterns = [path(route.lstrip("/"), item_list(paginator)) for route, paginator in LISTS.items()]

if __name__ == "__main__":
    django_setup.serve(port_from_args(__doc__), LISTS)
