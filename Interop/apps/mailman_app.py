"""GNU Mailman 3 core, its REST API's list of users, on SQLite.

    /3.1/users?count=50&page=1   {"start": 0, "total_size": 1234, "entries": [{"user_id": "…",
                                  "self_link": "http://…/3.1/users/…", "created_on": …,
                                  "is_server_owner": false, "display_name": "User 1"}...50],
                                  "http_etag": "…"}

Without `count` and `page` the API answers every user at once, so the URL given names
them, as mailmanclient (what Postorius, Mailman's web UI, uses) asks for a page. Pages are numbered from 1; a page past the end
has `start` and `total_size` and no `entries` member. Users have no `id`: each is keyed by
its `user_id` (a UUID's hex). Every request needs the REST admin's Basic credentials,
`restadmin:restpass` (Mailman's defaults, written into the configuration here).

Mailman's REST API is a Falcon WSGI app (`mailman.rest.wsgiapp.make_application`), served
here in-process after `mailman.core.initialize`, without Mailman's other runners; its users
are made with its `IUserManager`, in one transaction.
"""

import os
import shutil

from interop_common import ITEM_COUNT, Interop, data_dir, port_from_args, serve_wsgi

CONFIG = """\
[mailman]
layout: interop
site_owner: owner@interop.test

[paths.interop]
var_dir: {var_dir}

[webservice]
hostname: 127.0.0.1
port: {port}
admin_user: restadmin
admin_pass: restpass
"""


def initialize(data, port):
    """Writes mailman.cfg into a new var folder and initializes Mailman from it (its
    `[webservice]` host and port are the ones its `self_link`s name)."""
    var_dir = os.path.join(data, "mailman")
    shutil.rmtree(var_dir, ignore_errors=True)
    os.makedirs(var_dir)
    path = os.path.join(data, "mailman.cfg")
    with open(path, "w") as file:
        file.write(CONFIG.format(var_dir=var_dir, port=port))
    from mailman.core.initialize import initialize as mailman_initialize

    mailman_initialize(path)


def seed():
    from mailman.config import config
    from mailman.interfaces.usermanager import IUserManager
    from zope.component import getUtility

    users = getUtility(IUserManager)
    for i in range(1, ITEM_COUNT + 1):
        users.create_user(f"user{i}@interop.test", f"User {i}")
    config.db.commit()


def ids():
    from mailman.config import config
    from mailman.interfaces.usermanager import IUserManager
    from zope.component import getUtility

    try:
        return [user.user_id.hex for user in getUtility(IUserManager).users]
    finally:
        config.db.abort()


LISTS = ["/3.1/users"]

if __name__ == "__main__":
    port = port_from_args(__doc__)
    initialize(data_dir(), port)
    seed()
    from mailman.rest.wsgiapp import make_application

    interop = Interop(LISTS, ids)
    serve_wsgi(interop.wsgi(make_application()), port)
