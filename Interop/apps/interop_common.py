"""What every interop server shares: the dataset, the port, and the control middleware.

The middleware sits outside the framework and its paginator. For the list routes it
is given, it counts requests and can hold each response back for a delay. It also
answers the runner's control routes:

    GET  /__interop/ids            JSON array of every id the list holds (?path=P: the list at
                                   P, for a server whose lists differ in their ids)
    GET  /__interop/requests       JSON number: requests to the list routes since the last reset
    POST /__interop/reset          zeroes that count
    GET  /__interop/delay          JSON number: the delay in milliseconds
    POST /__interop/delay?ms=N     sets the delay (INTEROP_DELAY_MS gives the starting value)

A server that takes writes gives the middleware a `Store` too. The middleware then
sees every POST, PUT, PATCH and DELETE outside the control routes: it lets the app
apply it, counts it when the app answered 2xx, logs it, and holds the answer back for
the write delay before sending it, so a client can be killed after the write is applied
and before its answer arrives. Its control routes:

    GET  /__interop/writes              JSON number: writes answered 2xx since the start
    GET  /__interop/write-log           every write seen, oldest first:
                                        [{"method", "path", "status", "body", "if_match"}]
    GET  /__interop/write-delay         JSON number: the delay before a write's answer, in ms
    POST /__interop/write-delay?ms=N    sets it (INTEROP_WRITE_DELAY_MS gives the starting value)
    GET  /__interop/item?id=N           the item as stored (404 when there is none)
    POST /__interop/set?id=N&title=X    changes the stored item's members, as another client would
    GET  /__interop/find?title=X        every stored item with that title
"""

import argparse
import asyncio
import http.client
import io
import json
import os
import socket
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from http import HTTPStatus
from typing import Callable, List, Optional
from urllib.parse import parse_qs
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

ITEM_COUNT = int(os.environ.get("INTEROP_ITEMS", "1234"))
EPOCH = datetime(2024, 1, 1, tzinfo=timezone.utc)


def dataset():
    """The items every server lists: ids 1…ITEM_COUNT, `created` increasing with the id."""
    items = []
    for i in range(1, ITEM_COUNT + 1):
        created = EPOCH + timedelta(minutes=i)
        items.append(
            {
                "id": i,
                "title": f"item {i}",
                "created": created,
                "updated_at": created + timedelta(hours=1),
            }
        )
    return items


def port_from_args(description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    return parser.parse_args().port


def data_dir():
    """Where a server keeps its database: $INTEROP_DATA_DIR, else a new temporary folder."""
    path = os.environ.get("INTEROP_DATA_DIR") or tempfile.mkdtemp(prefix="interop-")
    os.makedirs(path, exist_ok=True)
    return path


def jsonable(item):
    """An item with its dates as ISO 8601 text."""
    return {
        key: value.isoformat() if isinstance(value, (date, datetime)) else value
        for key, value in item.items()
    }


@dataclass
class Store:
    """How the middleware reads and changes a writable server's items behind its framework:
    `item(id)` the stored item or None, `set(id, members)` changes those members and
    gives the item (None when there is none), `find(title)` every item with that title.
    Items are dicts of JSON values."""

    item: Callable[[int], Optional[dict]]
    set: Callable[[int, dict], Optional[dict]]
    find: Callable[[str], List[dict]]


WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


class Interop:
    """Request counting, response delay and the control routes, for WSGI and ASGI apps; for
    WSGI apps given a `Store`, also the write count, log and delay."""

    def __init__(self, list_paths, ids, store=None):
        self.list_paths = set(list_paths)
        self.ids = ids
        self.store = store
        self.requests = 0
        self.delay_ms = int(os.environ.get("INTEROP_DELAY_MS", "0"))
        self.writes = 0
        self.write_log = []
        self.write_delay_ms = int(os.environ.get("INTEROP_WRITE_DELAY_MS", "0"))
        self.lock = threading.Lock()

    def is_list(self, path):
        return path in self.list_paths

    def record(self):
        with self.lock:
            self.requests += 1
        return self.delay_ms / 1000

    def control(self, method, path, query):
        """Answers a control route: (status code, JSON-encodable body)."""
        if path == "/__interop/ids" and method == "GET":
            list_path = parse_qs(query).get("path", [""])[0]
            return 200, list(self.ids(list_path) if list_path else self.ids())
        if path == "/__interop/requests" and method == "GET":
            return 200, self.requests
        if path == "/__interop/reset" and method == "POST":
            with self.lock:
                self.requests = 0
            return 200, 0
        if path == "/__interop/delay" and method == "GET":
            return 200, self.delay_ms
        if path == "/__interop/delay" and method == "POST":
            self.delay_ms = int(parse_qs(query).get("ms", ["0"])[0])
            return 200, self.delay_ms
        if self.store is not None:
            return self.write_control(method, path, parse_qs(query))
        return 404, {"error": f"no control route {method} {path}"}

    def write_control(self, method, path, query):
        """Answers a control route of a writable server: (status code, JSON-encodable body)."""
        if path == "/__interop/writes" and method == "GET":
            return 200, self.writes
        if path == "/__interop/write-log" and method == "GET":
            with self.lock:
                return 200, list(self.write_log)
        if path == "/__interop/write-delay" and method == "GET":
            return 200, self.write_delay_ms
        if path == "/__interop/write-delay" and method == "POST":
            self.write_delay_ms = int(query.get("ms", ["0"])[0])
            return 200, self.write_delay_ms
        if path == "/__interop/find" and method == "GET":
            return 200, self.store.find(query.get("title", [""])[0])
        if path in ("/__interop/item", "/__interop/set") and "id" not in query:
            return 400, {"error": "id is required"}
        if path == "/__interop/item" and method == "GET":
            item = self.store.item(int(query["id"][0]))
            return (200, item) if item is not None else (404, {"error": "no such item"})
        if path == "/__interop/set" and method == "POST":
            members = {key: values[0] for key, values in query.items() if key != "id"}
            item = self.store.set(int(query["id"][0]), members)
            return (200, item) if item is not None else (404, {"error": "no such item"})
        return 404, {"error": f"no control route {method} {path}"}

    def applied(self, method, path, status, body, if_match):
        """Logs a write the app answered, and counts it when the answer is 2xx. Returns the
        delay before the answer goes out, in seconds."""
        try:
            shown = json.loads(body) if body else None
        except ValueError:
            shown = body.decode("utf-8", "replace")
        entry = {"method": method, "path": path, "status": status, "body": shown, "if_match": if_match}
        with self.lock:
            if 200 <= status < 300:
                self.writes += 1
            self.write_log.append(entry)
        return self.write_delay_ms / 1000

    def wsgi_write(self, app, environ, start_response):
        """Runs a write through the app, then holds its answer back for the write delay."""
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length > 0 else b""
        environ["wsgi.input"] = io.BytesIO(body)
        answer = {}
        early = []

        def capture(status, headers, exc_info=None):
            answer["status"], answer["headers"] = status, headers
            return early.append

        result = app(environ, capture)
        try:
            chunks = early + list(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        status = int(answer["status"].split()[0])
        method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")
        time.sleep(self.applied(method, path, status, body, environ.get("HTTP_IF_MATCH")))
        start_response(answer["status"], answer["headers"])
        return chunks

    def wsgi(self, app):
        def middleware(environ, start_response):
            path = environ.get("PATH_INFO", "")
            if path.startswith("/__interop/"):
                status, body = self.control(
                    environ["REQUEST_METHOD"], path, environ.get("QUERY_STRING", "")
                )
                data = json.dumps(body).encode()
                start_response(
                    f"{status} {HTTPStatus(status).phrase}",
                    [("Content-Type", "application/json"), ("Content-Length", str(len(data)))],
                )
                return [data]
            if self.is_list(path):
                time.sleep(self.record())
            if self.store is not None and environ["REQUEST_METHOD"] in WRITE_METHODS:
                return self.wsgi_write(app, environ, start_response)
            return app(environ, start_response)

        return middleware

    def asgi(self, app):
        async def middleware(scope, receive, send):
            if scope["type"] != "http":
                return await app(scope, receive, send)
            path = scope["path"]
            if path.startswith("/__interop/"):
                status, body = self.control(
                    scope["method"], path, scope.get("query_string", b"").decode()
                )
                data = json.dumps(body).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": status,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": data})
                return None
            if self.is_list(path):
                await asyncio.sleep(self.record())
            return await app(scope, receive, send)

        return middleware


# Applications that run as servers of their own (Synapse) are started on a private port and
# served through `forward`, a WSGI app that passes each request on unchanged (Host included,
# so the links they build point at the public port) and gives back the answer.

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade"}


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def forward(port):
    """A WSGI app that passes every request on to 127.0.0.1:port and answers with its answer."""

    def app(environ, start_response):
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length > 0 else None
        headers = {
            key[5:].replace("_", "-").title(): value
            for key, value in environ.items()
            if key.startswith("HTTP_") and key[5:].lower().replace("_", "-") not in HOP_BY_HOP
        }
        if environ.get("CONTENT_TYPE"):
            headers["Content-Type"] = environ["CONTENT_TYPE"]
        target = environ.get("PATH_INFO", "") + (
            "?" + environ["QUERY_STRING"] if environ.get("QUERY_STRING") else ""
        )
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            connection.request(environ["REQUEST_METHOD"], target, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        kept = [(k, v) for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP | {"content-length"}]
        start_response(f"{response.status} {response.reason}", kept + [("Content-Length", str(len(data)))])
        return [data]

    return app


class ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):
        pass


def serve_wsgi(app, port):
    """Serves a WSGI app on 127.0.0.1:port, a thread per request, until the process ends."""
    make_server("127.0.0.1", port, app, server_class=ThreadingWSGIServer, handler_class=QuietHandler).serve_forever()


def wait_for(url, seconds=120, process=None):
    """Waits until a GET of url answers (any status); raises when it never does or `process` ends."""
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + seconds
    while True:
        if process is not None and process.poll() is not None:
            raise SystemExit(f"the server exited {process.returncode} before answering {url}")
        try:
            urllib.request.urlopen(url, timeout=5).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit(f"no answer from {url} in {seconds}s")
            time.sleep(0.2)
