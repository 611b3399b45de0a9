"""Django REST framework: its stock paginators on one generic list view each.

    /drf/page-number/      PageNumberPagination (PAGE_SIZE 100, as in DRF's docs)
    /drf/limit-offset/     LimitOffsetPagination (default limit PAGE_SIZE)
    /drf/cursor/           CursorPagination (its default ordering "-created": newest first)
    /drf/page-size-param/  the docs' StandardResultsSetPagination (page_size_query_param)
    /drf/capped-limit-offset/  LimitOffsetPagination with `max_limit` 100 (default limit 100):
                           a larger limit is cut to 100 without a word
    /drf/link-header/      drf-link-header-pagination's LinkHeaderPagination: a bare array,
                           the pages in `Link` (rel next, prev, first, last; ?page=N)
    /drf/link-header-cursor/  its LinkHeaderCursorPagination: a bare array, the cursor only in
                           `Link` rel=next (?cursor=…; ordering "-created", newest first)
    /drf/header-limit-offset/  hedju's HeaderLimitOffsetPagination: a bare array, `Link` rel
                           first, next, previous, last and the total in `X-Total-Count`

And a `ModelViewSet` registered on a `DefaultRouter`, as in DRF's quickstart, that takes
writes (its list paged by the default PageNumberPagination; no ETag, and Idempotency-Key
and If-Match are ignored, as DRF does):

    /drf/items/            GET (list), POST
    /drf/items/{id}/       GET, PUT, PATCH, DELETE

And the same items written and read in two shapes, as DRF's docs pair a write-only
`PrimaryKeyRelatedField` with a nested read-only serializer: a create takes
`{"title", "author_id"}`, the list shows `{"id", "title", "author": {"id", "name"}, …}`:

    /drf/posts/            GET (list), POST
    /drf/posts/{id}/       GET, PUT, PATCH, DELETE
"""

import django_setup
from interop_common import port_from_args

django_setup.configure(
    "drf",
    urlconf=__name__,
    installed_apps=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    REST_FRAMEWORK={
        "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
        "PAGE_SIZE": 100,
    },
)

from django.urls import include, path  # noqa: E402
from drf_link_header_pagination import LinkHeaderCursorPagination, LinkHeaderPagination  # noqa: E402
from hedju.pagination import HeaderLimitOffsetPagination  # noqa: E402
from rest_framework import generics, pagination, routers, serializers, viewsets  # noqa: E402

from django_items.models import Author, Item  # noqa: E402

Author.objects.bulk_create(Author(id=i, name=f"author {i}") for i in range(1, 6))


class StandardResultsSetPagination(pagination.PageNumberPagination):
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000


class CappedLimitOffsetPagination(pagination.LimitOffsetPagination):
    default_limit = 100
    max_limit = 100


class ItemSerializer(serializers.ModelSerializer):
    class Meta:
        model = Item
        fields = ["id", "title", "created", "updated_at"]


def item_list(paginator):
    return generics.ListAPIView.as_view(
        queryset=Item.objects.all(), serializer_class=ItemSerializer, pagination_class=paginator
    )


LISTS = {
    "/drf/page-number/": pagination.PageNumberPagination,
    "/drf/limit-offset/": pagination.LimitOffsetPagination,
    "/drf/cursor/": pagination.CursorPagination,
    "/drf/page-size-param/": StandardResultsSetPagination,
    "/drf/capped-limit-offset/": CappedLimitOffsetPagination,
    "/drf/link-header/": LinkHeaderPagination,
    "/drf/link-header-cursor/": LinkHeaderCursorPagination,
    "/drf/header-limit-offset/": HeaderLimitOffsetPagination,
}


class ItemViewSet(viewsets.ModelViewSet):
    queryset = Item.objects.all()
    serializer_class = ItemSerializer


class AuthorSerializer(serializers.ModelSerializer):
    class Meta:
        model = Author
        fields = ["id", "name"]


class PostSerializer(serializers.ModelSerializer):
    author = AuthorSerializer(read_only=True)
    author_id = serializers.PrimaryKeyRelatedField(
        queryset=Author.objects.all(), source="author", write_only=True
    )

    class Meta:
        model = Item
        fields = ["id", "title", "author", "author_id", "created", "updated_at"]


class PostViewSet(viewsets.ModelViewSet):
    queryset = Item.objects.select_related("author")
    serializer_class = PostSerializer


router = routers.DefaultRouter()
router.register(r"items", ItemViewSet)
router.register(r"posts", PostViewSet, basename="post")

urlpatterns = [path(route.lstrip("/"), item_list(paginator)) for route, paginator in LISTS.items()]
urlpatterns.append(path("drf/", include(router.urls)))

if __name__ == "__main__":
    django_setup.serve(port_from_args(__doc__), [*LISTS, "/drf/items/", "/drf/posts/"], writable=True)
