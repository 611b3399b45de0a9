"""pygeoapi: OGC API - Features over a GeoJSON file, with the limits of pygeoapi's example
configuration (20 items by default, at most 50, a larger `limit` throttled to 50).

    /collections/items/items   {"type": "FeatureCollection", "features": [...20],
                                "numberMatched": 1234, "numberReturned": 20,
                                "links": [{"rel": "next", "href": "...?offset=20", ...}, ...]}

Each feature is `{"type": "Feature", "id": N, "geometry": {...}, "properties": {"title",
"created", "updated_at"}}`. pygeoapi reads its configuration and its OpenAPI document
from files named by PYGEOAPI_CONFIG and PYGEOAPI_OPENAPI, so this script writes both (and
the GeoJSON file) to its data folder before it imports pygeoapi's Flask app.
"""

import json
import os

import yaml

from interop_common import Interop, data_dir, dataset, jsonable, port_from_args

LISTS = ["/collections/items/items"]


def write_files(folder, port):
    features = []
    for item in dataset():
        item = jsonable(item)
        features.append(
            {
                "type": "Feature",
                "id": item["id"],
                "geometry": {"type": "Point", "coordinates": [item["id"] % 360 - 180, 0.0]},
                "properties": {key: item[key] for key in ("title", "created", "updated_at")},
            }
        )
    data = os.path.join(folder, "items.geojson")
    with open(data, "w") as file:
        json.dump({"type": "FeatureCollection", "features": features}, file)
    url = f"http://127.0.0.1:{port}"
    config = {
        "server": {
            "bind": {"host": "127.0.0.1", "port": port},
            "url": url,
            "mimetype": "application/json; charset=UTF-8",
            "encoding": "utf-8",
            "languages": ["en-US"],
            "limits": {"default_items": 20, "max_items": 50},
            "map": {"url": "https://tile.openstreetmap.org/{z}/{x}/{y}.png", "attribution": "OpenStreetMap"},
        },
        "logging": {"level": "ERROR"},
        "metadata": {
            "identification": {
                "title": "Interop",
                "description": "The interop items",
                "keywords": ["interop"],
                "keywords_type": "theme",
                "terms_of_service": "https://creativecommons.org/licenses/by/4.0/",
                "url": url,
            },
            "license": {"name": "CC-BY 4.0", "url": "https://creativecommons.org/licenses/by/4.0/"},
            "provider": {"name": "Interop", "url": url},
            "contact": {"name": "Interop"},
        },
        "resources": {
            "items": {
                "type": "collection",
                "title": "Items",
                "description": "The interop items",
                "keywords": ["items"],
                "extents": {
                    "spatial": {
                        "bbox": [-180, -90, 180, 90],
                        "crs": "http://www.opengis.net/def/crs/OGC/1.3/CRS84",
                    }
                },
                "providers": [{"type": "feature", "name": "GeoJSON", "data": data, "id_field": "id"}],
            }
        },
    }
    config_path = os.path.join(folder, "pygeoapi-config.yml")
    with open(config_path, "w") as file:
        yaml.safe_dump(config, file)
    os.environ["PYGEOAPI_CONFIG"] = config_path

    from pygeoapi.openapi import get_oas

    openapi_path = os.path.join(folder, "pygeoapi-openapi.yml")
    with open(openapi_path, "w") as file:
        yaml.safe_dump(get_oas(config), file)
    os.environ["PYGEOAPI_OPENAPI"] = openapi_path
    return [item["id"] for item in features]


if __name__ == "__main__":
    port = port_from_args(__doc__)
    IDS = write_files(data_dir(), port)

    from pygeoapi.flask_app import APP

    interop = Interop(LISTS, lambda: IDS)
    APP.wsgi_app = interop.wsgi(APP.wsgi_app)
    APP.run(host="127.0.0.1", port=port, threaded=True)
