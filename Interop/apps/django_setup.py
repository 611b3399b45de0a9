"""Settings, database and server for the single-file Django apps (DRF, DRF JSON:API, Ninja).

`configure` must run before the app file imports anything that touches models.
"""

import os

import django
from django.conf import settings

from interop_common import Interop, Store, data_dir, dataset, jsonable


def configure(name, urlconf, installed_apps, **extra):
    """Configures Django with an SQLite file of its own, creates the table and seeds it."""
    database = os.path.join(data_dir(), f"{name}.sqlite3")
    if os.path.exists(database):
        os.remove(database)
    settings.configure(
        DEBUG=False,
        SECRET_KEY="interop",
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        ROOT_URLCONF=urlconf,
        INSTALLED_APPS=installed_apps + ["django_items"],
        MIDDLEWARE=[],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": database}},
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
        USE_TZ=True,
        TIME_ZONE="UTC",
        LOGGING={
            "version": 1,
            "disable_existing_loggers": False,
            "handlers": {"stderr": {"class": "logging.StreamHandler"}},
            "loggers": {"django.request": {"handlers": ["stderr"], "level": "ERROR"}},
        },
        **extra,
    )
    django.setup()

    from django.core.management import call_command

    from django_items.models import Item

    call_command("migrate", run_syncdb=True, verbosity=0)
    Item.objects.bulk_create(Item(**item) for item in dataset())


def item_store():
    """The middleware's `Store` over the `Item` table, for the servers that take writes."""
    from django_items.models import Item

    fields = ["id", "title", "created", "updated_at"]

    def item(item_id):
        found = Item.objects.filter(id=item_id).values(*fields).first()
        return jsonable(found) if found else None

    def change(item_id, members):
        Item.objects.filter(id=item_id).update(**members)
        return item(item_id)

    def find(title):
        return [jsonable(found) for found in Item.objects.filter(title=title).values(*fields)]

    return Store(item=item, set=change, find=find)


def serve(port, list_paths, writable=False, ids=None):
    """Serves the project with runserver's threaded server, behind the interop middleware
    (with the `Item` store when the project takes writes; `ids` as `Interop` takes it, else
    the `Item` table's ids)."""
    from django.core.servers.basehttp import run
    from django.core.wsgi import get_wsgi_application

    from django_items.models import Item

    interop = Interop(
        list_paths,
        ids or (lambda: Item.objects.values_list("id", flat=True)),
        store=item_store() if writable else None,
    )
    run("127.0.0.1", port, interop.wsgi(get_wsgi_application()), threading=True)
