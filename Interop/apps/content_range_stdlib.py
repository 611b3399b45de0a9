"""A `Content-Range` list as PostgREST and react-admin's simple REST servers page it.

No stock Python library serves this, so this one is a plain WSGI app on the standard
library, counted apart from the frameworks' paginators.

    GET /items                       200, the first 50 items, Content-Range: items 0-49/1234
    GET /items  Range: items=50-99   206, Content-Range: items 50-99/1234
    a range past the end             416, Content-Range: items */1234

`Range: 50-99` with `Range-Unit: items` (PostgREST's form) is read the same. A range
wider than 50 items is cut to 50, as PostgREST cuts to its max-rows.
"""

import json
import re
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIServer, make_server

from interop_common import Interop, dataset, port_from_args

PAGE_SIZE = 50
ITEMS = [
    dict(item, created=item["created"].isoformat(), updated_at=item["updated_at"].isoformat())
    for item in dataset()
]
RANGE = re.compile(r"^(?:items=)?(\d+)-(\d*)$")


def requested_range(environ):
    match = RANGE.match(environ.get("HTTP_RANGE", "").strip())
    if not match:
        return 0, PAGE_SIZE - 1, False
    first = int(match.group(1))
    last = int(match.group(2)) if match.group(2) else first + PAGE_SIZE - 1
    return first, min(last, first + PAGE_SIZE - 1), True


def app(environ, start_response):
    if environ["PATH_INFO"] != "/items":
        start_response("404 Not Found", [("Content-Type", "application/json")])
        return [b'{"error": "not found"}']
    total = len(ITEMS)
    first, last, ranged = requested_range(environ)
    if first >= total and total > 0:
        start_response(
            "416 Range Not Satisfiable",
            [("Content-Range", f"items */{total}"), ("Content-Type", "application/json")],
        )
        return [b"[]"]
    last = min(last, total - 1)
    body = json.dumps(ITEMS[first : last + 1]).encode()
    start_response(
        "206 Partial Content" if ranged else "200 OK",
        [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(body))),
            ("Accept-Ranges", "items"),
            ("Content-Range", f"items {first}-{last}/{total}"),
        ],
    )
    return [body]


class ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


LISTS = ["/items"]

if __name__ == "__main__":
    interop = Interop(LISTS, lambda: [item["id"] for item in ITEMS])
    server = make_server(
        "127.0.0.1", port_from_args(__doc__), interop.wsgi(app), server_class=ThreadingWSGIServer
    )
    server.serve_forever()
