"""Avro values of ParamHub's topics, to and from Python dicts, with the registry's schemas (python3-avro).

Decoding reads a value with its writer schema, found by the id in its header, so a record written with an
older or newer schema decodes as written: fields a writer did not know are absent from the dict (read them
with ``dict.get`` and the schema's default). Encoding writes with the latest schema of ``<topic>-value`` and
fills every field the caller leaves out with that schema's default. ``timestamp-millis`` fields are
timezone-aware ``datetime``s both ways. Schemas are compiled once into a reader and a writer
(``avro_binary``) that give python3-avro's bytes and values; python3-avro's own ``DatumReader`` and
``DatumWriter`` serve a schema the compiler does not take.
"""

import io

import avro.io
import avro.schema

from .avro_binary import Unsupported, compile_reader, compile_writer
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
        read = self._readers.get(schema_id)
        if read is None:
            read = _reader(avro.schema.parse(self.registry.schema_text(schema_id)))
            self._readers[schema_id] = read
        return read(value, offset)

    def encode(self, topic, datum):
        """``datum`` (a dict; missing fields take their defaults) in the wire format of ``<topic>-value``'s latest schema."""
        schema_id, schema, writer = self._writer(topic + "-value")
        full = dict(datum)
        for field in schema.fields:
            if field.name not in full:
                if not field.has_default:
                    raise ValueError("%s needs field '%s', which has no default" % (schema.fullname, field.name))
                full[field.name] = field.default
        return frame(schema_id, writer(full))

    def field_names(self, topic):
        """The fields of ``<topic>-value``'s latest schema, the one ``encode`` writes with."""
        return [field.name for field in self._writer(topic + "-value")[1].fields]

    def _writer(self, subject):
        cached = self._writers.get(subject)
        if cached is None:
            schema_id, text = self.registry.latest(subject)
            schema = avro.schema.parse(text)
            cached = (schema_id, schema, _writer(schema))
            self._writers[subject] = cached
        return cached


def _reader(schema):
    """``read(value, offset)`` for ``schema``: compiled, or python3-avro's DatumReader where it cannot be."""
    try:
        return compile_reader(schema)
    except Unsupported:
        reader = avro.io.DatumReader(schema, schema)

        def read(value, offset):
            stream = io.BytesIO(value)
            stream.seek(offset)
            return reader.read(avro.io.BinaryDecoder(stream))

        return read


def _writer(schema):
    """``write(datum)`` giving the Avro bytes of ``datum``: compiled, or python3-avro's DatumWriter where it cannot be."""
    try:
        return compile_writer(schema)
    except Unsupported:
        writer = avro.io.DatumWriter(schema)

        def write(datum):
            buffer = io.BytesIO()
            writer.write(datum, avro.io.BinaryEncoder(buffer))
            return buffer.getvalue()

        return write
