"""Settings, database and server for the single-file Django apps (DRF, DRF JSON:API, Ninja).

`configure` must run before the app file imports anything that touches models.
"""

import os

import django
from django.conf import settings

from interop_common import Interop, data_dir, dataset


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


def serve(port, list_paths):
    """Serves the project with runserver's threaded server, behind the interop middleware."""
    from django.core.servers.basehttp import run
    from django.core.wsgi import get_wsgi_application

    from django_items.models import Item

    interop = Interop(list_paths, lambda: Item.objects.values_list("id", flat=True))
    run("127.0.0.1", port, interop.wsgi(get_wsgi_application()), threading=True)
