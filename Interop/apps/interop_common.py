"""What every interop server shares: the dataset, the port, and the control middleware.

The middleware sits outside the framework and its paginator. For the list routes it
is given, it counts requests and can hold each response back for a delay. It also
answers the runner's control routes:

    GET  /__interop/ids            JSON array of every id the list holds
    GET  /__interop/requests       JSON number: requests to the list routes since the last reset
    POST /__interop/reset          zeroes that count
    GET  /__interop/delay          JSON number: the delay in milliseconds
    POST /__interop/delay?ms=N     sets the delay (INTEROP_DELAY_MS gives the starting value)
"""

import argparse
import asyncio
import json
import os
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from urllib.parse import parse_qs

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


class Interop:
    """Request counting, response delay and the control routes, for WSGI and ASGI apps."""

    def __init__(self, list_paths, ids):
        self.list_paths = set(list_paths)
        self.ids = ids
        self.requests = 0
        self.delay_ms = int(os.environ.get("INTEROP_DELAY_MS", "0"))
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
            return 200, list(self.ids())
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
        return 404, {"error": f"no control route {method} {path}"}

    def wsgi(self, app):
        def middleware(environ, start_response):
            path = environ.get("PATH_INFO", "")
            if path.startswith("/__interop/"):
                status, body = self.control(
                    environ["REQUEST_METHOD"], path, environ.get("QUERY_STRING", "")
                )
                data = json.dumps(body).encode()
                start_response(
                    f"{status} {'OK' if status == 200 else 'Not Found'}",
                    [("Content-Type", "application/json"), ("Content-Length", str(len(data)))],
                )
                return [data]
            if self.is_list(path):
                time.sleep(self.record())
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
