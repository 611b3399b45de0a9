"""Wagtail (a Django CMS), its API v2's list of pages, on SQLite.

    /api/v2/pages/   {"meta": {"total_count": 1235}, "items": [{"id": 2, "meta": {"type":
                      "wagtailcore.Page", "detail_url": "http://…/api/v2/pages/2/", "html_url":
                      …, "slug": …, "first_published_at": …}, "title": "…"}...20]}

`?offset=&limit=`, 20 a page by default and at most 20 (`WAGTAILAPI_LIMIT_MAX`'s default):
`?limit=21` answers 400 `{"message": "limit cannot be higher than 20"}`. The router and
endpoint are those of Wagtail's API docs (`WagtailAPIRouter`, `PagesAPIViewSet`). The pages
are Wagtail's own welcome page and 1 234 children of it, so the list holds 1 235 pages (the
tree's root, also live, is not listed).
"""

import os

import django
from django.conf import settings

from interop_common import ITEM_COUNT, Interop, data_dir, port_from_args

PORT = port_from_args(__doc__)
DATABASE = os.path.join(data_dir(), "wagtail.sqlite3")
if os.path.exists(DATABASE):
    os.remove(DATABASE)

settings.configure(
    DEBUG=False,
    SECRET_KEY="interop",
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=[
        "wagtail.api.v2",
        "wagtail",
        "wagtail.sites",
        "wagtail.users",
        "wagtail.admin",
        "taggit",
        "modelcluster",
        "rest_framework",
        "django.contrib.auth",
        "django.contrib.contenttypes",
        "django.contrib.sessions",
        "django.contrib.messages",
        "django.contrib.staticfiles",
    ],
    MIDDLEWARE=[],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": DATABASE}},
    DEFAULT_AUTO_FIELD="django.db.models.AutoField",
    USE_TZ=True,
    TIME_ZONE="UTC",
    STATIC_URL="/static/",
    WAGTAIL_SITE_NAME="interop",
    WAGTAILADMIN_BASE_URL=f"http://127.0.0.1:{PORT}",
    WAGTAILAPI_BASE_URL=f"http://127.0.0.1:{PORT}",
    TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}],
    LOGGING={
        "version": 1,
        "disable_existing_loggers": False,
        "handlers": {"stderr": {"class": "logging.StreamHandler"}},
        "loggers": {"django.request": {"handlers": ["stderr"], "level": "ERROR"}},
    },
)
django.setup()

from django.urls import path  # noqa: E402
from wagtail.api.v2.router import WagtailAPIRouter  # noqa: E402
from wagtail.api.v2.views import PagesAPIViewSet  # noqa: E402

api_router = WagtailAPIRouter("wagtailapi")
api_router.register_endpoint("pages", PagesAPIViewSet)
urlpatterns = [path("api/v2/", api_router.urls)]


def seed():
    """Migrates (Wagtail's migrations make the root and the welcome page) and adds the pages
    under the welcome page in one bulk insert, with the tree paths `add_child` would give them
    (`add_child`, one page at a time, takes 40 s here)."""
    from django.contrib.contenttypes.models import ContentType
    from django.core.management import call_command
    from wagtail.models import Page

    call_command("migrate", verbosity=0)
    home = Page.objects.get(depth=2)
    kind = ContentType.objects.get_for_model(Page)
    Page.objects.bulk_create(
        Page(
            title=f"item {i}",
            draft_title=f"item {i}",
            slug=f"item-{i}",
            path=Page._get_path(home.path, home.depth + 1, i),
            depth=home.depth + 1,
            numchild=0,
            url_path=f"{home.url_path}item-{i}/",
            content_type=kind,
            locale_id=home.locale_id,
            live=True,
        )
        for i in range(1, ITEM_COUNT + 1)
    )
    Page.objects.filter(pk=home.pk).update(numchild=ITEM_COUNT)


def ids():
    from wagtail.models import Page

    # The tree's root (depth 1) is not in the API's list.
    return list(Page.objects.live().filter(depth__gt=1).order_by("id").values_list("id", flat=True))


LISTS = ["/api/v2/pages/"]

if __name__ == "__main__":
    import time

    from django.core.wsgi import get_wsgi_application

    from interop_common import serve_wsgi

    started = time.monotonic()
    seed()
    print(f"seeded in {time.monotonic() - started:.1f}s", flush=True)
    interop = Interop(LISTS, ids)
    serve_wsgi(interop.wsgi(get_wsgi_application()), PORT)
