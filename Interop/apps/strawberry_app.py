"""Strawberry GraphQL on Django (strawberry-graphql-django): a Relay connection and an offset
list, each the library's stock field, on the `Item` model, one schema a route.

    /graphql/relay    items: DjangoListConnection[ItemNode] = strawberry_django.connection()
                      items(first, after) {totalCount edges {cursor node {...}} pageInfo {...}}
                      (at most 100 a page, the schema's relay_max_results)
    /graphql/offset   items: OffsetPaginated[ItemType] = strawberry_django.offset_paginated()
                      items(pagination: {offset, limit}) {totalCount results {...}}
                      (100 a page when no limit is given)

A Relay node's `id` is its global id (base64 of "ItemNode:N"), so `GET /__interop/ids`
answers per list: `?path=/graphql/relay` gives the global ids, else the model's ids.
The queries `slippers` is given are `strawberry_relay.graphql` and
`strawberry_offset.graphql` beside this file.
"""

import base64

import django_setup
from interop_common import port_from_args

django_setup.configure("strawberry", urlconf=__name__, installed_apps=["strawberry_django"])

import strawberry  # noqa: E402
import strawberry_django  # noqa: E402
from django.urls import path  # noqa: E402
from django.views.decorators.csrf import csrf_exempt  # noqa: E402
from strawberry import relay  # noqa: E402
from strawberry.django.views import GraphQLView  # noqa: E402
from strawberry_django.pagination import OffsetPaginated  # noqa: E402
from strawberry_django.relay import DjangoListConnection  # noqa: E402

from django_items.models import Item  # noqa: E402


@strawberry_django.type(Item)
class ItemNode(relay.Node):
    title: strawberry.auto
    created: strawberry.auto
    updated_at: strawberry.auto


@strawberry_django.type(Item, pagination=True)
class ItemType:
    id: strawberry.auto
    title: strawberry.auto
    created: strawberry.auto
    updated_at: strawberry.auto


@strawberry.type
class RelayQuery:
    items: DjangoListConnection[ItemNode] = strawberry_django.connection()


@strawberry.type
class OffsetQuery:
    items: OffsetPaginated[ItemType] = strawberry_django.offset_paginated()


relay_schema = strawberry.Schema(query=RelayQuery)
offset_schema = strawberry.Schema(query=OffsetQuery)

urlpatterns = [
    path("graphql/relay", csrf_exempt(GraphQLView.as_view(schema=relay_schema))),
    path("graphql/offset", csrf_exempt(GraphQLView.as_view(schema=offset_schema))),
]

LISTS = ["/graphql/relay", "/graphql/offset"]


def ids(list_path=""):
    numbers = list(Item.objects.values_list("id", flat=True))
    if list_path == "/graphql/relay":
        return [base64.b64encode(f"ItemNode:{n}".encode()).decode() for n in numbers]
    return numbers


if __name__ == "__main__":
    django_setup.serve(port_from_args(__doc__), LISTS, ids=ids)
