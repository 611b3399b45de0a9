#!/usr/bin/env python3
"""Runs dlt's `rest_api` source on interop lists with no paginator configured, and says
what it did: exact, loud or silent.

For each list, dlt is given the list's server as the client's `base_url`, the list's path
as the resource's `path` (the query of the URL, if any, as its `params`), the list's
`headers` of Interop/run (an application's credentials) as the client's `headers`, and
nothing else: no `paginator` and no `data_selector`, so dlt detects both from the first
response. It loads into a duckdb file; the loaded ids (each item's `id_field` of
Interop/run, `id` unless it says) are then compared with the server's (`GET /__interop/ids`):

    exact    dlt exits normally and loaded every id once
    loud     dlt raised an error (its one-line gist is printed)
    silent   dlt exited normally with ids missing or duplicated (how many of the server's
             it got); "silent (loops)" when, at the timeout, it was still asking without
             an error and had asked for some URL twice ("timeout" when it had not)

It also prints the paginator that dlt's detection chose, by its score: "detected" (1.0,
logged at INFO), "guessed" (0.5, logged as a WARNING that asks to verify it) or "fallback"
(0.0: `SinglePagePaginator`, one page, logged as a WARNING); where dlt found the items (its
data selector); and how many list requests the server saw (`GET /__interop/requests`,
zeroed before each list). GraphQL lists are not run: dlt's `rest_api` has no GraphQL
paging.

dlt is not in Interop/requirements.txt (CI does not run it). Its own virtual environment:

    python3 -m venv .build-interop/dlt-venv && .build-interop/dlt-venv/bin/pip install "dlt[duckdb]==1.31.0"

Then, with the servers up (`Interop/run --keep`, its output saved to a file):

    .build-interop/dlt-venv/bin/python Interop/dlt_compare.py --keep-output FILE     every list it printed
    .build-interop/dlt-venv/bin/python Interop/dlt_compare.py NAME=URL [NAME=URL …]   these lists
    --timeout SECONDS (per list, 120), --keep-files (leave each list's duckdb file and log),
    --method POST --json BODY (ask for the lists given by POST with that body, as an
    application's client does; still no paginator)

One Markdown table row per list (list | detected paginator | result | what it did), then
the tally.
"""

import argparse
import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def load_lists():
    """The LISTS table of Interop/run, by name (the runner is imported, not run, and leaves no
    bytecode beside it)."""
    sys.dont_write_bytecode = True
    loader = importlib.machinery.SourceFileLoader("interop_run", os.path.join(HERE, "run"))
    spec = importlib.util.spec_from_loader("interop_run", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return {item.name: item for item in module.LISTS}


# The child: one dlt run, in its own process so that a timeout can end it.


def root_cause(error):
    """The innermost exception that dlt wrapped (PipelineStepFailed → … → the HTTP error)."""
    while error.__cause__ is not None or error.__context__ is not None:
        error = error.__cause__ or error.__context__
    return error


def child(given, workdir):
    """Runs rest_api_source on the list that `given` (JSON: url, headers, id_field, method,
    json) names into workdir/items.duckdb; writes the loaded ids (each item's id_field) and
    tables to workdir/loaded.json. Exits 1 with one `ERROR:` line when dlt raises."""
    given = json.loads(given)
    url = given["url"]
    # dlt logs the detected data selector, paginator and every request at INFO.
    os.environ["RUNTIME__LOG_LEVEL"] = "INFO"
    os.environ["RUNTIME__DLTHUB_TELEMETRY"] = "false"
    import dlt
    from dlt.sources.helpers.rest_client.detector import PaginatorFactory
    from dlt.sources.rest_api import rest_api_source

    # Prints the paginator that detection chose and its score (1.0 detected, 0.5 guessed,
    # 0.0 the single-page fallback); dlt's own log names it only for a score of 1.0.
    create_paginator = PaginatorFactory.create_paginator

    def logged_create_paginator(self, response):
        paginator, score = create_paginator(self, response)
        print(f"DETECTED: {paginator} (score {score})", flush=True)
        return paginator, score

    PaginatorFactory.create_paginator = logged_create_paginator

    parts = urllib.parse.urlsplit(url)
    endpoint = {"path": parts.path}
    params = dict(urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
    if params:
        endpoint["params"] = params
    # A list asked for by POST (--method POST --json BODY), as its application's client does.
    if given["method"] != "GET":
        endpoint["method"] = given["method"]
    if given["json"] is not None:
        endpoint["json"] = given["json"]
    client_config = {"base_url": f"{parts.scheme}://{parts.netloc}/"}
    # An application's credentials (the list's `headers` in Interop/run).
    if given["headers"]:
        client_config["headers"] = given["headers"]
    source = rest_api_source(
        {"client": client_config, "resources": [{"name": "items", "endpoint": endpoint}]}
    )
    pipeline = dlt.pipeline(
        pipeline_name="dlt_compare",
        pipelines_dir=os.path.join(workdir, "pipelines"),
        destination=dlt.destinations.duckdb(os.path.join(workdir, "items.duckdb")),
        dataset_name="interop",
    )
    try:
        pipeline.run(source)
    except Exception as error:
        cause = root_cause(error)
        gist = " ".join(str(cause).split())
        print(f"ERROR: {type(cause).__name__}: {gist}", flush=True)
        return 1
    # Every table dlt made (child tables too) with its row count, and the id column of the
    # resource's table (the list's id_field, as dlt names columns) when it has one.
    column = pipeline.default_schema.naming.normalize_identifier(given["id_field"])
    loaded = {"tables": {}, "ids": None, "column": column}
    with pipeline.sql_client() as client:
        for (table,) in client.execute_sql(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'interop'"
            " AND table_name NOT LIKE '_dlt%'"
        ):
            loaded["tables"][table] = client.execute_sql(f'SELECT count(*) FROM interop."{table}"')[0][0]
        columns = [
            row[0]
            for row in client.execute_sql(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_schema = 'interop' AND table_name = 'items'"
            )
        ]
        if column in columns:
            loaded["ids"] = [str(row[0]) for row in client.execute_sql(f'SELECT "{column}" FROM interop.items')]
    with open(os.path.join(workdir, "loaded.json"), "w") as file:
        json.dump(loaded, file)
    return 0


# The parent: runs the child per list and judges what it loaded.


def server_get(url, route, method="GET"):
    parts = urllib.parse.urlsplit(url)
    request = urllib.request.Request(
        f"{parts.scheme}://{parts.netloc}/__interop/{route}",
        method=method,
        data=b"" if method == "POST" else None,
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def detected_paginator(log):
    """The paginator detection chose (the child's DETECTED line) and where dlt found the items
    (its `Detected page data at path` line)."""
    found = re.search(r"^DETECTED: (\w+)[^:(]*(?::(.*?))? \(score ([\d.]+)\)$", log, re.M)
    if found:
        # `JSONLinkPaginator(next_url_path=links.next)`, detected: the class, the paths and
        # parameter it was given, and what its score means.
        name, members, score = found.groups()
        given = [
            f"{key}={value}"
            for key, value in re.findall(r"(\w+): (\S+)", members or "")
            if key in ("next_url_path", "total_path", "page_param", "cursor_path", "cursor_param")
            and value != "None"
        ]
        how = {"1.0": "detected", "0.5": "guessed", "0.0": "fallback"}.get(score, f"score {score}")
        paginator = f"`{name}({', '.join(given)})`, {how}" if given else f"`{name}`, {how}"
    elif "No suitable `paginator` found" in log:
        paginator = "none found"
    else:
        paginator = "none (the first response was an error)"
    found = re.search(r"Detected (?:single )?page data at path: '(.*?)'", log)
    if found:
        paginator += f"; items at `{found.group(1)}`"
    return paginator


def spaced(number):
    """1 234, as Interop/README.md writes numbers."""
    return f"{number:,}".replace(",", " ")


def judge(name, url, item, request, timeout, keep_files):
    """Runs dlt on one list (`item`: its Listing in Interop/run; `request`: the method and JSON
    body to ask with); returns (paginator, result, what it did)."""
    # The server's lists differ in their ids (`ids_by_path`): they are asked for with ?path=.
    by_path = getattr(item, "ids_by_path", False)
    route = "ids?path=" + urllib.parse.quote(urllib.parse.urlsplit(url).path) if by_path else "ids"
    id_field = getattr(item, "id_field", "id")
    headers = dict(header.split(": ", 1) for header in getattr(item, "headers", ()))
    given = json.dumps({"url": url, "headers": headers, "id_field": id_field, **request})
    expected = [str(value) for value in server_get(url, route)]
    server_get(url, "reset", "POST")
    workdir = tempfile.mkdtemp(prefix=f"dlt-compare-{name}-")
    log_path = os.path.join(workdir, "dlt.log")
    started = time.monotonic()
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--child", given, workdir],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            code = process.wait(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            code, timed_out = None, True
    seconds = time.monotonic() - started
    requests = server_get(url, "requests")
    log = open(log_path).read()
    paginator = detected_paginator(log)
    loaded_path = os.path.join(workdir, "loaded.json")
    loaded = json.load(open(loaded_path)) if os.path.exists(loaded_path) else None
    total = len(expected)
    shown = spaced(total)
    asked = f"{spaced(requests)} request{'s' if requests != 1 else ''}"

    if timed_out:
        # A loop asks for a URL it asked for before; a list merely slower than the timeout
        # does not, and gets no verdict.
        urls = re.findall(r"Making GET request to (\S+)", log)
        result = "silent (loops)" if len(set(urls)) < len(urls) else "timeout"
        what = f"still asking at {timeout:.0f} s: {asked}, {spaced(len(urls) - len(set(urls)))} repeated, nothing loaded"
    elif code != 0:
        error = next((line for line in log.splitlines() if line.startswith("ERROR: ")), f"exit {code}")
        result = "loud"
        what = f"{asked}; {error[len('ERROR: '):] if error.startswith('ERROR: ') else error}"
    elif loaded is None or loaded["ids"] is None:
        tables = ", ".join(f"{table} {rows}" for table, rows in sorted((loaded or {}).get("tables", {}).items()))
        result = "silent"
        what = f"{asked}: 0 of {shown} (no `{id_field}` column in `items`; rows loaded: {tables or 'none'})"
    else:
        ids = loaded["ids"]
        distinct = set(ids)
        missing = len(set(expected) - distinct)
        duplicates = len(ids) - len(distinct)
        foreign = len(distinct - set(expected))
        if not missing and not duplicates and not foreign and len(ids) == total:
            result = "exact"
        else:
            result = "silent"
        got = len(distinct & set(expected))
        what = f"{asked}: {spaced(got)} of {shown}"
        if duplicates:
            what += f", {spaced(duplicates)} duplicate rows ({spaced(len(ids))} loaded)"
        if foreign:
            what += f", {foreign} ids the server does not list"
    if keep_files:
        what += f" [{workdir}]"
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{name}: {result} after {seconds:.1f} s", file=sys.stderr, flush=True)
    return paginator, result, what


def parse_keep_output(path):
    """`NAME: URL` lines of `Interop/run --keep`'s output, skipping servers that were not up."""
    pairs = []
    for line in open(path):
        found = re.match(r"^([\w.-]+): (https?://\S+)(.*)$", line.strip())
        if found and "(not up" not in found.group(3):
            pairs.append((found.group(1), found.group(2)))
    return pairs


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        return child(sys.argv[2], sys.argv[3])
    parser = argparse.ArgumentParser(description="dlt's rest_api with no paginator against interop lists.")
    parser.add_argument("lists", nargs="*", metavar="NAME=URL", help="a list of Interop/run's LISTS and its URL")
    parser.add_argument("--keep-output", metavar="FILE", help="the output of `Interop/run --keep`")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per list (120)")
    parser.add_argument("--keep-files", action="store_true", help="keep each list's duckdb file and log")
    parser.add_argument("--method", default="GET", help="the lists' method (GET; POST for a list asked for by POST)")
    parser.add_argument("--json", type=json.loads, metavar="BODY", help="a JSON body sent with each request")
    options = parser.parse_args()

    lists = load_lists()
    pairs = parse_keep_output(options.keep_output) if options.keep_output else []
    for given in options.lists:
        name, _, url = given.partition("=")
        pairs.append((name, url))
    # Only the lists of LISTS (the --keep output also names the writable servers), in its order.
    order = list(lists)
    pairs = sorted(((name, url) for name, url in pairs if name in lists), key=lambda pair: order.index(pair[0]))
    if not pairs:
        parser.error("no list of Interop/run's LISTS given")

    request = {"method": options.method, "json": options.json}
    tally = {"exact": 0, "loud": 0, "silent": 0, "n/a": 0, "timeout": 0}
    print("| list | dlt's detected paginator | result | what it did |")
    print("| --- | --- | --- | --- |")
    for name, url in pairs:
        if "--graphql" in lists[name].args:
            paginator, result, what = "—", "n/a (GraphQL)", "not run: `rest_api` has no GraphQL paging"
        else:
            paginator, result, what = judge(name, url, lists[name], request, options.timeout, options.keep_files)
        tally[result.split(" (")[0]] += 1
        print(f"| `{name}` | {paginator} | {result} | {what} |", flush=True)
    timeouts = f", {tally['timeout']} timed out" if tally["timeout"] else ""
    print(f"\n{tally['exact']} exact, {tally['loud']} loud, {tally['silent']} silent, {tally['n/a']} n/a (GraphQL){timeouts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
