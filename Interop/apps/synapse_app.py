"""Synapse (the Matrix homeserver), its admin API's list of users, on SQLite.

    /_synapse/admin/v2/users   {"users": [{"name": "@u0001:interop.test", ...}...100],
                                "next_token": "100", "total": 1234}

100 users a page by default (`?limit=`); the next page is asked for by sending `next_token`
back as `?from=`, and the last page has no `next_token`. Users have no `id`: each is keyed
by its `name`, sorted by it. The API is an admin's: every request carries
`Authorization: Bearer interop-admin-token`.

Synapse runs in its own process on a private port (it is a Twisted server, not a WSGI or
ASGI app) and is served through `forward`. Its users are the admin, registered through
the shared-secret admin API, and 1 233 more written straight into its `users` table.
"""

import hashlib
import hmac
import json
import os
import sqlite3
import subprocess
import sys
import time
import urllib.request

from signedjson.key import generate_signing_key, write_signing_keys

from interop_common import ITEM_COUNT, Interop, data_dir, forward, free_port, port_from_args, serve_wsgi, wait_for

SERVER_NAME = "interop.test"
SECRET = "interop-shared-secret"
TOKEN = "interop-admin-token"
ADMIN = f"@admin:{SERVER_NAME}"

CONFIG = """\
server_name: {server_name}
pid_file: {data}/homeserver.pid
listeners:
  - port: {port}
    bind_addresses: ["127.0.0.1"]
    type: http
    x_forwarded: false
    resources: [{{names: [client], compress: false}}]
database:
  name: sqlite3
  args: {{database: {data}/homeserver.db}}
media_store_path: {data}/media
signing_key_path: {data}/signing.key
registration_shared_secret: {secret}
report_stats: false
trusted_key_servers: []
suppress_key_server_warning: true
log_config: {data}/log.yaml
"""

LOG_CONFIG = """\
version: 1
formatters: {precise: {format: "%(asctime)s %(name)s %(levelname)s %(message)s"}}
handlers: {console: {class: logging.StreamHandler, formatter: precise}}
root: {level: WARNING, handlers: [console]}
disable_existing_loggers: false
"""


def start(data, port):
    """Writes the configuration and a signing key, starts Synapse, waits for it."""
    for name in ("homeserver.db", "homeserver.db-wal", "homeserver.db-shm"):
        if os.path.exists(os.path.join(data, name)):
            os.remove(os.path.join(data, name))
    config = os.path.join(data, "homeserver.yaml")
    with open(config, "w") as file:
        file.write(CONFIG.format(server_name=SERVER_NAME, data=data, port=port, secret=SECRET))
    with open(os.path.join(data, "log.yaml"), "w") as file:
        file.write(LOG_CONFIG)
    with open(os.path.join(data, "signing.key"), "w") as file:
        write_signing_keys(file, [generate_signing_key("a_interop")])
    process = subprocess.Popen([sys.executable, "-m", "synapse.app.homeserver", "-c", config])
    wait_for(f"http://127.0.0.1:{port}/health", process=process)
    return process


def register_admin(port):
    """Registers the admin through the shared-secret registration of the admin API."""
    base = f"http://127.0.0.1:{port}/_synapse/admin/v1/register"
    with urllib.request.urlopen(base) as response:
        nonce = json.load(response)["nonce"]
    signed = b"\x00".join([nonce.encode(), b"admin", b"interop-password", b"admin"])
    mac = hmac.new(SECRET.encode(), signed, hashlib.sha1)
    body = json.dumps(
        {"nonce": nonce, "username": "admin", "password": "interop-password", "admin": True, "mac": mac.hexdigest()}
    ).encode()
    request = urllib.request.Request(base, data=body, headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).close()


def seed(database):
    """Gives the admin the known access token, and writes the other users into `users`."""
    now = int(time.time())
    with sqlite3.connect(database, timeout=60) as db:
        db.execute(
            "INSERT INTO access_tokens (id, user_id, device_id, token) VALUES (?, ?, NULL, ?)",
            (999_999, ADMIN, TOKEN),
        )
        db.executemany(
            "INSERT INTO users (name, creation_ts, admin, is_guest, deactivated) VALUES (?, ?, 0, 0, 0)",
            [(f"@u{i:04d}:{SERVER_NAME}", now) for i in range(1, ITEM_COUNT)],
        )


def ids(database):
    with sqlite3.connect(database, timeout=60) as db:
        return [row[0] for row in db.execute("SELECT name FROM users ORDER BY name")]


LISTS = ["/_synapse/admin/v2/users"]

if __name__ == "__main__":
    port = port_from_args(__doc__)
    data = data_dir()
    database = os.path.join(data, "homeserver.db")
    private = free_port()
    synapse = start(data, private)
    register_admin(private)
    seed(database)
    interop = Interop(LISTS, lambda: ids(database))
    serve_wsgi(interop.wsgi(forward(private)), port)
