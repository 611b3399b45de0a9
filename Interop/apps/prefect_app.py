"""Prefect's server (a workflow orchestrator), its REST API's flows, on SQLite.

Both lists are asked for by POST, paged in the JSON body, as Prefect's client does; a GET
of either answers 405.

    POST /api/flows/filter    {"limit": 200, "offset": 0, …}  ->  [{"id": "…uuid…", "name":
                              "flow 0001", "created": …, "updated": …, "tags": [], …}...200]
                              a bare array, no total, no link; the end is a short page
    POST /api/flows/paginate  {"limit": 200, "page": 1, …}    ->  {"results": [...200],
                              "count": 1234, "limit": 200, "pages": 7, "page": 1}

200 flows a page unless the body's `limit` says (`PREFECT_API_DEFAULT_LIMIT`, also the most),
sorted by name. The server is `prefect.server.api.server.create_app()` (what `prefect server
start` serves through uvicorn) with its background services off, served here in-process; the
flows are made through its `models.flows.create_flow` in one transaction.
"""

import asyncio
import os

from interop_common import ITEM_COUNT, Interop, data_dir, port_from_args

DATA = data_dir()
DATABASE = os.path.join(DATA, "prefect.sqlite3")
for suffix in ("", "-wal", "-shm"):
    if os.path.exists(DATABASE + suffix):
        os.remove(DATABASE + suffix)
os.environ.update(
    PREFECT_HOME=os.path.join(DATA, "prefect-home"),
    PREFECT_API_DATABASE_CONNECTION_URL=f"sqlite+aiosqlite:///{DATABASE}",
    PREFECT_SERVER_ANALYTICS_ENABLED="false",
    PREFECT_UI_ENABLED="false",
    PREFECT_SERVER_API_HOST="127.0.0.1",
    PREFECT_LOGGING_LEVEL="WARNING",
)

import uvicorn  # noqa: E402
from prefect.server import models, schemas  # noqa: E402
from prefect.server.api.server import create_app  # noqa: E402
from prefect.server.database import provide_database_interface  # noqa: E402


async def seed():
    db = provide_database_interface()
    await db.create_db()
    async with db.session_context(begin_transaction=True) as session:
        for i in range(1, ITEM_COUNT + 1):
            await models.flows.create_flow(session, flow=schemas.core.Flow(name=f"flow {i:04d}"))


async def flow_ids():
    db = provide_database_interface()
    async with db.session_context() as session:
        flows = await models.flows.read_flows(session)
        return [str(flow.id) for flow in flows]


LISTS = ["/api/flows/filter", "/api/flows/paginate"]

if __name__ == "__main__":
    port = port_from_args(__doc__)
    asyncio.run(seed())
    known = asyncio.run(flow_ids())
    app = create_app(webserver_only=True, final=True)
    interop = Interop(LISTS, lambda: known)
    uvicorn.run(interop.asgi(app), host="127.0.0.1", port=port, log_level="warning")
