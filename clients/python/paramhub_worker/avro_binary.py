"""Avro's binary encoding, compiled once per schema into plain functions.

python3-avro's ``DatumReader`` and ``DatumWriter`` walk the schema for every value and check each datum's type on
the way: on the PyTorch example's ModelShards (eight named tensors and their shapes in every record) that walk
took about half of a Python worker's CPU. ``compile_reader`` and ``compile_writer`` turn a parsed schema
(``avro.schema``, still python3-avro's parser) into functions that read and write the same bytes and give the same
Python values as those classes do with one schema as both writer's and reader's, the codec's case.
``timestamp-millis`` longs are timezone-aware ``datetime``s, as python3-avro makes them; a schema with another
logical type (decimal, date, uuid, ...) raises ``Unsupported``, and the codec keeps python3-avro for it.
"""

import datetime
import struct

import avro.schema
import avro.timezones

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=avro.timezones.utc)
_FLOAT = struct.Struct("<f")
_DOUBLE = struct.Struct("<d")
_INT_RANGE = (-(1 << 31), (1 << 31) - 1)
_LONG_RANGE = (-(1 << 63), (1 << 63) - 1)


class Unsupported(Exception):
    """A schema this module does not compile (a logical type other than timestamp-millis)."""


def _logical(schema):
    logical = getattr(schema, "logical_type", None) or schema.props.get("logicalType")
    if logical is None or (logical == "timestamp-millis" and schema.type == "long"):
        return logical
    raise Unsupported("logical type %s on %s" % (logical, schema.type))


# ---- reading: each reader takes (buffer, position) and returns (value, next position) ----

def _read_long(buf, pos):
    b = buf[pos]
    pos += 1
    n = b & 0x7F
    shift = 7
    while b & 0x80:
        b = buf[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        shift += 7
    return (n >> 1) ^ -(n & 1), pos


def _read_length(buf, pos):
    n, pos = _read_long(buf, pos)
    if n < 0 or pos + n > len(buf):
        raise ValueError("an Avro length of %d at byte %d runs past the value's %d bytes" % (n, pos, len(buf)))
    return n, pos


def _read_bytes(buf, pos):
    n, pos = _read_length(buf, pos)
    return bytes(buf[pos:pos + n]), pos + n


def _read_string(buf, pos):
    n, pos = _read_length(buf, pos)
    return str(buf[pos:pos + n], "utf-8"), pos + n


def _read_timestamp(buf, pos):
    millis, pos = _read_long(buf, pos)
    return _EPOCH + datetime.timedelta(microseconds=millis * 1000), pos


def _read_float(buf, pos):
    return _FLOAT.unpack_from(buf, pos)[0], pos + 4


def _read_double(buf, pos):
    return _DOUBLE.unpack_from(buf, pos)[0], pos + 8


def _read_boolean(buf, pos):
    return buf[pos] == 1, pos + 1


_PRIMITIVE_READERS = {
    "null": lambda buf, pos: (None, pos),
    "boolean": _read_boolean,
    "int": _read_long,
    "long": _read_long,
    "float": _read_float,
    "double": _read_double,
    "bytes": _read_bytes,
    "string": _read_string,
}


def _block_count(buf, pos):
    """The item count of an array's or a map's next block (a negative count is followed by the block's size)."""
    count, pos = _read_long(buf, pos)
    if count < 0:
        count = -count
        _, pos = _read_long(buf, pos)
    return count, pos


def compile_reader(schema):
    """A function ``read(value, offset)`` giving the dict (or value) Avro-encoded in ``value`` from ``offset``,
    as python3-avro's ``DatumReader(schema, schema)`` would; ``ValueError`` when the bytes do not hold one."""
    read = _reader(schema, {})

    def read_value(value, offset=0):
        try:
            return read(value, offset)[0]
        except (IndexError, struct.error) as e:
            raise ValueError("truncated Avro value (%d bytes): %s" % (len(value), e)) from None

    return read_value


def _reader(schema, named):
    if isinstance(schema, avro.schema.NamedSchema) and schema.fullname in named:
        return named[schema.fullname]
    kind = schema.type
    if kind in _PRIMITIVE_READERS:
        if _logical(schema) == "timestamp-millis":
            return _read_timestamp
        return _PRIMITIVE_READERS[kind]
    _logical(schema)
    if kind == "record" or kind == "error":
        fields = []

        def read_record(buf, pos):
            datum = {}
            for name, read in fields:
                datum[name], pos = read(buf, pos)
            return datum, pos

        named[schema.fullname] = read_record  # before the fields: a record may refer to itself
        fields.extend((field.name, _reader(field.type, named)) for field in schema.fields)
        return read_record
    if kind == "enum":
        symbols = list(schema.symbols)

        def read_enum(buf, pos):
            index, pos = _read_long(buf, pos)
            if not 0 <= index < len(symbols):
                raise ValueError("enum %s has no symbol %d" % (schema.fullname, index))
            return symbols[index], pos

        named[schema.fullname] = read_enum
        return read_enum
    if kind == "fixed":
        size = schema.size

        def read_fixed(buf, pos):
            if pos + size > len(buf):
                raise ValueError("fixed %s of %d bytes runs past the value" % (schema.fullname, size))
            return bytes(buf[pos:pos + size]), pos + size

        named[schema.fullname] = read_fixed
        return read_fixed
    if kind == "array":
        read_item = _reader(schema.items, named)

        def read_array(buf, pos):
            items = []
            count, pos = _block_count(buf, pos)
            while count:
                for _ in range(count):
                    item, pos = read_item(buf, pos)
                    items.append(item)
                count, pos = _block_count(buf, pos)
            return items, pos

        return read_array
    if kind == "map":
        read_item = _reader(schema.values, named)

        def read_map(buf, pos):
            entries = {}
            count, pos = _block_count(buf, pos)
            while count:
                for _ in range(count):
                    key, pos = _read_string(buf, pos)
                    entries[key], pos = read_item(buf, pos)
                count, pos = _block_count(buf, pos)
            return entries, pos

        return read_map
    if kind == "union":
        branches = [_reader(branch, named) for branch in schema.schemas]

        def read_union(buf, pos):
            index, pos = _read_long(buf, pos)
            if not 0 <= index < len(branches):
                raise ValueError("a union of %d branches has no branch %d" % (len(branches), index))
            return branches[index](buf, pos)

        return read_union
    raise Unsupported("Avro type %s" % kind)


# ---- writing: each writer appends one datum to a bytearray, checking it as python3-avro's validation does ----

def _write_long(out, datum):
    n = (datum << 1) ^ (datum >> 63)
    while n & ~0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _millis(datum):
    delta = datum.astimezone(tz=avro.timezones.utc) - _EPOCH
    return ((delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds) // 1000


class _Writer:
    """One schema's writer: ``accepts`` is python3-avro's check of a datum's top level (``Schema.validate``),
    ``valid`` its whole validation (``avro.io.validate``), ``write`` appends the encoding and raises where the
    datum does not fit."""

    __slots__ = ("accepts", "valid", "write")

    def __init__(self, accepts, write, valid=None):
        self.accepts = accepts
        self.valid = accepts if valid is None else valid
        self.write = write


def _number_writer(kind, bounds):
    low, high = bounds

    def accepts(datum):
        return isinstance(datum, int) and low <= datum <= high

    def write(out, datum):
        if not accepts(datum):
            raise TypeError("%r is not an Avro %s" % (datum, kind))
        _write_long(out, datum)

    return _Writer(accepts, write)


def _packed_writer(kind, packer):
    def accepts(datum):
        return isinstance(datum, (int, float))

    def write(out, datum):
        if not accepts(datum):
            raise TypeError("%r is not an Avro %s" % (datum, kind))
        out += packer.pack(datum)

    return _Writer(accepts, write)


def _sized_writer(kind, python_type, to_bytes):
    def accepts(datum):
        return isinstance(datum, python_type)

    def write(out, datum):
        if not isinstance(datum, python_type):
            raise TypeError("%r is not an Avro %s" % (datum, kind))
        raw = to_bytes(datum)
        _write_long(out, len(raw))
        out += raw

    return _Writer(accepts, write)


def _aware(datum):
    return isinstance(datum, datetime.datetime) and datum.tzinfo is not None and datum.utcoffset() is not None


def _timestamp_write(out, datum):
    if not _aware(datum):
        raise TypeError("%r is not a timezone-aware datetime (timestamp-millis)" % (datum,))
    _write_long(out, _millis(datum))


def _null_write(out, datum):
    if datum is not None:
        raise TypeError("%r is not an Avro null" % (datum,))


def _boolean_write(out, datum):
    if not isinstance(datum, bool):
        raise TypeError("%r is not an Avro boolean" % (datum,))
    out.append(1 if datum else 0)


def _primitive_writer(kind):
    if kind == "null":
        return _Writer(lambda datum: datum is None, _null_write)
    if kind == "boolean":
        return _Writer(lambda datum: isinstance(datum, bool), _boolean_write)
    if kind == "int":
        return _number_writer(kind, _INT_RANGE)
    if kind == "long":
        return _number_writer(kind, _LONG_RANGE)
    if kind == "float":
        return _packed_writer(kind, _FLOAT)
    if kind == "double":
        return _packed_writer(kind, _DOUBLE)
    if kind == "bytes":
        return _sized_writer(kind, bytes, lambda datum: datum)
    return _sized_writer(kind, str, lambda datum: datum.encode("utf-8"))


def compile_writer(schema):
    """A function ``write(datum)`` giving the bytes python3-avro's ``DatumWriter(schema)`` writes for ``datum``;
    ``TypeError`` (or ``ValueError``) where that writer's validation would refuse the datum."""
    writer = _writer(schema, {})

    def write_value(datum):
        out = bytearray()
        writer.write(out, datum)
        if not writer.valid(datum):  # written, but through a union branch python3-avro's validation does not take
            raise TypeError("%r does not validate against %s" % (datum, schema))
        return bytes(out)

    return write_value


def _writer(schema, named):
    if isinstance(schema, avro.schema.NamedSchema) and schema.fullname in named:
        return named[schema.fullname]
    kind = schema.type
    if kind in _PRIMITIVE_READERS:
        if _logical(schema) == "timestamp-millis":
            return _Writer(_aware, _timestamp_write)
        return _primitive_writer(kind)
    _logical(schema)
    if kind == "record" or kind == "error":
        return _record_writer(schema, named)
    if kind == "enum":
        index = {symbol: i for i, symbol in enumerate(schema.symbols)}

        def write_enum(out, datum):
            if datum not in index:
                raise ValueError("%r is not a symbol of enum %s" % (datum, schema.fullname))
            _write_long(out, index[datum])

        named[schema.fullname] = _Writer(lambda datum: datum in index, write_enum)
        return named[schema.fullname]
    if kind == "fixed":
        size = schema.size

        def accepts_fixed(datum):
            return isinstance(datum, bytes) and len(datum) == size

        def write_fixed(out, datum):
            if not accepts_fixed(datum):
                raise TypeError("%r is not fixed %s of %d bytes" % (datum, schema.fullname, size))
            out += datum

        named[schema.fullname] = _Writer(accepts_fixed, write_fixed)
        return named[schema.fullname]
    if kind == "array":
        return _array_writer(_writer(schema.items, named))
    if kind == "map":
        return _map_writer(_writer(schema.values, named))
    if kind == "union":
        return _union_writer([_writer(branch, named) for branch in schema.schemas])
    raise Unsupported("Avro type %s" % kind)


def _record_writer(schema, named):
    fields = []
    names = frozenset(field.name for field in schema.fields)

    def accepts(datum):
        return isinstance(datum, dict) and names.issuperset(datum)

    def write(out, datum):
        if not accepts(datum):
            raise TypeError("%r is not a record %s (or has fields it lacks)" % (datum, schema.fullname))
        for name, writer in fields:
            try:
                writer.write(out, datum.get(name))
            except (TypeError, ValueError) as e:
                raise type(e)("%s.%s: %s" % (schema.name, name, e)) from None

    def valid(datum):
        return accepts(datum) and all(writer.valid(datum.get(name)) for name, writer in fields)

    record = _Writer(accepts, write, valid)
    named[schema.fullname] = record  # before the fields: a record may refer to itself
    fields.extend((field.name, _writer(field.type, named)) for field in schema.fields)
    return record


def _array_writer(item):
    def accepts(datum):
        return isinstance(datum, list)

    def write(out, datum):
        if not isinstance(datum, list):
            raise TypeError("%r is not an Avro array" % (datum,))
        if datum:
            _write_long(out, len(datum))
            for x in datum:
                item.write(out, x)
        out.append(0)

    return _Writer(accepts, write, lambda datum: accepts(datum) and all(item.valid(x) for x in datum))


def _map_writer(value):
    def accepts(datum):
        return isinstance(datum, dict) and all(isinstance(key, str) for key in datum)

    def write(out, datum):
        if not isinstance(datum, dict):
            raise TypeError("%r is not an Avro map" % (datum,))
        if datum:
            _write_long(out, len(datum))
            for key, v in datum.items():
                if not isinstance(key, str):
                    raise TypeError("map key %r is not a string" % (key,))
                raw = key.encode("utf-8")
                _write_long(out, len(raw))
                out += raw
                value.write(out, v)
        out.append(0)

    return _Writer(accepts, write, lambda datum: accepts(datum) and all(value.valid(v) for v in datum.values()))


def _union_writer(branches):
    def accepts(datum):
        return any(branch.accepts(datum) for branch in branches)

    def valid(datum):  # python3-avro validates a union's value against the first branch that takes its top level
        for branch in branches:
            if branch.accepts(datum):
                return branch.valid(datum)
        return False

    def write(out, datum):  # and writes it in the last branch it validates against
        for index in range(len(branches) - 1, -1, -1):
            if branches[index].valid(datum):
                _write_long(out, index)
                branches[index].write(out, datum)
                return
        raise TypeError("%r fits no branch of the union" % (datum,))

    return _Writer(accepts, write, valid)
