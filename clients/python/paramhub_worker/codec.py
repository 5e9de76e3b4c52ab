"""Avro values of ParamHub's topics, to and from Python dicts, with the registry's schemas (python3-avro).

Decoding reads a value with its writer schema, found by the id in its header, so a record written with an
older or newer schema decodes as written: fields a writer did not know are absent from the dict (read them
with ``dict.get`` and the schema's default). Encoding writes with the latest schema of ``<topic>-value`` and
fills every field the caller leaves out with that schema's default. ``timestamp-millis`` fields are
timezone-aware ``datetime``s both ways.
"""

import io

import avro.io
import avro.schema

from .registry import frame, unframe


class AvroCodec:
    """Encodes and decodes the values of ParamHub's topics through one RegistryClient, caching parsed schemas."""

    def __init__(self, registry):
        self.registry = registry
        self._readers = {}
        self._writers = {}

    def decode(self, value):
        """The dict a wire-format value holds; ValueError (or avro's errors) when it is not one."""
        schema_id, offset = unframe(value)
        reader = self._readers.get(schema_id)
        if reader is None:
            schema = avro.schema.parse(self.registry.schema_text(schema_id))
            reader = avro.io.DatumReader(schema, schema)
            self._readers[schema_id] = reader
        stream = io.BytesIO(value)
        stream.seek(offset)
        return reader.read(avro.io.BinaryDecoder(stream))

    def encode(self, topic, datum):
        """``datum`` (a dict; missing fields take their defaults) in the wire format of ``<topic>-value``'s latest schema."""
        schema_id, schema, writer = self._writer(topic + "-value")
        full = dict(datum)
        for field in schema.fields:
            if field.name not in full:
                if not field.has_default:
                    raise ValueError("%s needs field '%s', which has no default" % (schema.fullname, field.name))
                full[field.name] = field.default
        buffer = io.BytesIO()
        writer.write(full, avro.io.BinaryEncoder(buffer))
        return frame(schema_id, buffer.getvalue())

    def _writer(self, subject):
        cached = self._writers.get(subject)
        if cached is None:
            schema_id, text = self.registry.latest(subject)
            schema = avro.schema.parse(text)
            cached = (schema_id, schema, avro.io.DatumWriter(schema))
            self._writers[subject] = cached
        return cached
