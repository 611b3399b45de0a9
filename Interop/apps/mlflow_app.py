"""MLflow's tracking server, its REST API's experiment search, on SQLite.

    /api/2.0/mlflow/experiments/search?max_results=100
        {"experiments": [{"experiment_id": "1234", "name": "experiment 1234",
                          "artifact_location": …, "lifecycle_stage": "active",
                          "last_update_time": …, "creation_time": …}...100],
         "next_page_token": "eyJvZmZzZXQiOiAxMDB9"}

Newest first (`last_update_time DESC`, MLflow's default order). A GET without `max_results`
answers 400 ("Invalid value 0 for parameter 'max_results'"), so the URL names it, as MLflow's
clients do (at most 50 000 a page). The next
page is asked for by sending `next_page_token` back as `?page_token=`; the last page has no
`next_page_token`. Experiments have no `id`: each is keyed by its `experiment_id`.

MLflow's tracking server is a Flask app (`mlflow.server.app`, which `mlflow server` serves
through uvicorn), served here in-process on an SQLite backend store; the experiments are
made through its tracking store. The list holds them and MLflow's own `Default`
experiment (id 0): 1 234 in all.
"""

import os

from interop_common import ITEM_COUNT, Interop, data_dir, port_from_args, serve_wsgi

DATA = data_dir()
DATABASE = os.path.join(DATA, "mlflow.sqlite3")
if os.path.exists(DATABASE):
    os.remove(DATABASE)
os.environ["_MLFLOW_SERVER_FILE_STORE"] = f"sqlite:///{DATABASE}"
os.environ["_MLFLOW_SERVER_ARTIFACT_ROOT"] = os.path.join(DATA, "mlflow-artifacts")

from mlflow.server import app  # noqa: E402
from mlflow.server.handlers import _get_tracking_store  # noqa: E402


def seed(store):
    for i in range(1, ITEM_COUNT):
        store.create_experiment(f"experiment {i}")


def ids(store):
    found, token = [], None
    while True:
        page = store.search_experiments(max_results=1000, page_token=token)
        found += [experiment.experiment_id for experiment in page]
        token = page.token
        if not token:
            return found


LISTS = ["/api/2.0/mlflow/experiments/search"]

if __name__ == "__main__":
    port = port_from_args(__doc__)
    store = _get_tracking_store()
    seed(store)
    interop = Interop(LISTS, lambda: ids(store))
    serve_wsgi(interop.wsgi(app), port)
