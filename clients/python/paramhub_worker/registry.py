"""The schema registry over HTTP (urllib) and the Confluent wire format of every value on ParamHub's topics.

A value is a magic byte 0, the writer schema's id as 4 bytes big-endian, then the Avro binary encoding. A
reader fetches the writer schema by id (``GET /schemas/ids/{id}``); a writer uses the latest schema registered
under the topic's subject ``<topic>-value`` (``GET /subjects/{subject}/versions/latest``). Both are cached:
the registry is asked once per id and once per subject. Optional basic auth and a CA file for https.
"""

import base64
import json
import ssl
import struct
import threading
import urllib.error
import urllib.parse
import urllib.request

from .errors import RegistryError, SubjectNotFoundError

MAGIC = 0
_HEADER = struct.Struct(">bI")
HEADER_BYTES = _HEADER.size


def frame(schema_id, body):
    """``body`` (Avro binary) in the wire format of schema ``schema_id``."""
    return _HEADER.pack(MAGIC, schema_id) + body


def unframe(value):
    """(schema id, offset of the Avro body) of a wire-format value; ValueError when it is not one."""
    if value is None or len(value) < HEADER_BYTES:
        raise ValueError("not a schema-registry value: %s bytes" % (None if value is None else len(value)))
    magic, schema_id = _HEADER.unpack_from(value, 0)
    if magic != MAGIC:
        raise ValueError("unknown magic byte %d (expected %d)" % (magic, MAGIC))
    return schema_id, HEADER_BYTES


class RegistryClient:
    """A caching client of a Confluent-compatible registry: schemas by id, and each subject's latest (id, schema)."""

    def __init__(self, url, auth=None, ca_file=None, timeout_s=10.0):
        self.url = url.rstrip("/")
        self.timeout_s = timeout_s
        self._headers = {"Accept": "application/vnd.schemaregistry.v1+json, application/json"}
        if auth is not None:
            token = base64.b64encode(("%s:%s" % tuple(auth)).encode("utf-8")).decode("ascii")
            self._headers["Authorization"] = "Basic " + token
        self._context = ssl.create_default_context(cafile=ca_file) if ca_file else None
        self._by_id = {}
        self._latest = {}
        self._lock = threading.Lock()

    def schema_text(self, schema_id):
        """The schema (JSON text) registered with ``schema_id``."""
        with self._lock:
            cached = self._by_id.get(schema_id)
        if cached is None:
            cached = self._get("/schemas/ids/%d" % schema_id)["schema"]
            with self._lock:
                self._by_id[schema_id] = cached
        return cached

    def latest(self, subject):
        """(id, schema text) of ``subject``'s latest version; SubjectNotFoundError when it has none."""
        with self._lock:
            cached = self._latest.get(subject)
        if cached is None:
            try:
                answer = self._get("/subjects/%s/versions/latest" % urllib.parse.quote(subject, safe=""))
            except RegistryError as e:
                if e.status == 404:
                    raise SubjectNotFoundError(
                        "the schema registry at %s has no subject '%s': a worker writes with the schema ParamHub "
                        "registers there before the first job. Is the topic prefix right, and has ParamHub started "
                        "against this registry? (%s)"
                        % (self.url, subject, e)) from e
                raise
            cached = (answer["id"], answer["schema"])
            with self._lock:
                self._latest[subject] = cached
                self._by_id.setdefault(cached[0], cached[1])
        return cached

    def _get(self, path):
        request = urllib.request.Request(self.url + path, headers=self._headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s, context=self._context) as response:
                return json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as e:
            body = e.read().decode("utf-8", "replace")
            raise RegistryError("GET %s%s: HTTP %d %s" % (self.url, path, e.code, body), status=e.code) from e
        except urllib.error.URLError as e:
            raise RegistryError("GET %s%s: %s" % (self.url, path, e.reason)) from e
