"""What the tests share: the import path of the library, the repository's own .avsc files as registry schemas
(self-contained, named types inlined), and a registry served over HTTP from this process."""

import base64
import http.server
import json
import os
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
AVRO_DIR = os.path.join(REPOSITORY, "schemas", "src", "main", "avro")
_PRIMITIVES = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"}


def schema_text(name):
    """The schema ``name`` (e.g. GradientShard) from schemas/src/main/avro, every named type it uses inlined once."""
    known = {}
    for file in os.listdir(AVRO_DIR):
        if file.endswith(".avsc"):
            with open(os.path.join(AVRO_DIR, file)) as f:
                known[file[:-5]] = json.load(f)
    defined = set()

    def expand(node):
        if isinstance(node, str):
            short = node.rsplit(".", 1)[-1]  # a reference may give the namespace
            if node in _PRIMITIVES or short in defined or short not in known:
                return node
            defined.add(short)
            return expand(known[short])
        if isinstance(node, list):
            return [expand(item) for item in node]
        if isinstance(node, dict):
            if "name" in node and node.get("type") in ("record", "enum", "fixed"):
                defined.add(node["name"])
            out = dict(node)
            if "fields" in out:
                out["fields"] = [dict(field, type=expand(field["type"])) for field in out["fields"]]
            for key in ("items", "values"):
                if key in out:
                    out[key] = expand(out[key])
            return out
        return node

    return json.dumps(expand(known[name]))


class FakeRegistry:
    """A registry in memory: subject -> (id, schema text)."""

    def __init__(self, subjects):
        self.subjects = {subject: (i + 1, schema_text(name)) for i, (subject, name) in enumerate(sorted(subjects.items()))}
        self.by_id = {i: text for i, text in self.subjects.values()}

    def schema_text(self, schema_id):
        return self.by_id[schema_id]

    def latest(self, subject):
        return self.subjects[subject]


class RegistryServer:
    """A Confluent-style registry on 127.0.0.1 serving ``subjects`` (subject -> schema name), with optional basic auth."""

    def __init__(self, subjects, auth=None):
        registry = FakeRegistry(subjects)
        expected = None if auth is None else "Basic " + base64.b64encode(("%s:%s" % auth).encode()).decode()
        self.requests = []
        requests = self.requests

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                requests.append(self.path)
                if expected is not None and self.headers.get("Authorization") != expected:
                    return self._answer(401, {"error_code": 401, "message": "Unauthorized"})
                parts = self.path.strip("/").split("/")
                if parts[:2] == ["schemas", "ids"] and int(parts[2]) in registry.by_id:
                    return self._answer(200, {"schema": registry.by_id[int(parts[2])]})
                if parts[0] == "subjects" and parts[2:] == ["versions", "latest"] and parts[1] in registry.subjects:
                    schema_id, text = registry.subjects[parts[1]]
                    return self._answer(200, {"subject": parts[1], "version": 1, "id": schema_id, "schema": text})
                return self._answer(404, {"error_code": 40401, "message": "Subject '%s' not found." % self.path})

            def _answer(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/vnd.schemaregistry.v1+json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.registry = registry
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()
