"""The compiled Avro reader and writer against python3-avro's DatumReader and DatumWriter, on every schema of the
repository and on random records of each."""

import datetime
import io
import math
import os
import random
import struct
import unittest

from support import AVRO_DIR, schema_text

import avro.io
import avro.schema

from paramhub_worker.avro_binary import Unsupported, compile_reader, compile_writer

SCHEMAS = sorted(file[:-5] for file in os.listdir(AVRO_DIR) if file.endswith(".avsc"))


def avro_bytes(schema, datum):
    buffer = io.BytesIO()
    avro.io.DatumWriter(schema).write(datum, avro.io.BinaryEncoder(buffer))
    return buffer.getvalue()


def avro_value(schema, raw):
    return avro.io.DatumReader(schema, schema).read(avro.io.BinaryDecoder(io.BytesIO(raw)))


class RandomDatum:
    """Random values of a schema: every branch, empty and multi-block sizes, negative and 64-bit numbers, UTF-8."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def of(self, schema, depth=0):
        kind = schema.type
        rng = self.rng
        if getattr(schema, "logical_type", None) == "timestamp-millis":
            return datetime.datetime.fromtimestamp(rng.randint(0, 4_000_000_000_000) / 1000, datetime.timezone.utc)
        if kind == "null":
            return None
        if kind == "boolean":
            return rng.random() < 0.5
        if kind == "int":
            return rng.choice([0, -1, 63, -64, 64, rng.randint(-(1 << 31), (1 << 31) - 1)])
        if kind == "long":
            return rng.choice([0, -1, 1 << 40, rng.randint(-(1 << 63), (1 << 63) - 1)])
        if kind == "float":
            return struct.unpack("<f", struct.pack("<f", rng.uniform(-1e6, 1e6)))[0]
        if kind == "double":
            return rng.uniform(-1e300, 1e300)
        if kind == "bytes":
            return rng.randbytes(rng.choice([0, 1, 200, 70_000]))
        if kind == "string":
            return "".join(rng.choice("aZ9-/é漢🙂") for _ in range(rng.randint(0, 12)))
        if kind == "enum":
            return rng.choice(schema.symbols)
        if kind == "fixed":
            return rng.randbytes(schema.size)
        if kind == "array":
            return [self.of(schema.items, depth + 1) for _ in range(rng.choice([0, 1, 3]) if depth < 3 else 0)]
        if kind == "map":
            count = rng.choice([0, 1, 4]) if depth < 3 else 0
            return {"k%d-%s" % (i, self.of(avro.schema.PrimitiveSchema("string"))): self.of(schema.values, depth + 1)
                    for i in range(count)}
        if kind == "union":
            return self.of(rng.choice(schema.schemas), depth + 1)
        if kind in ("record", "error"):
            return {field.name: self.of(field.type, depth + 1) for field in schema.fields}
        raise AssertionError("no random value for %s" % kind)


class CompiledAvroTest(unittest.TestCase):

    def test_should_write_python3_avros_bytes_and_read_its_values_for_every_schema(self):
        for name in SCHEMAS:
            schema = avro.schema.parse(schema_text(name))
            write, read = compile_writer(schema), compile_reader(schema)
            datums = RandomDatum(name)
            for i in range(40):
                with self.subTest(schema=name, datum=i):
                    # given
                    datum = datums.of(schema)

                    # when
                    raw = write(datum)

                    # then
                    self.assertEqual(raw, avro_bytes(schema, datum))
                    self.assertEqual(read(raw), avro_value(schema, raw))
                    self.assertEqual(read(raw), datum)

    def test_should_read_from_an_offset_as_the_wire_format_needs(self):
        # given
        schema = avro.schema.parse(schema_text("TensorShape"))
        datum = {"name": "fc1.weight", "shape": [720, 1568]}

        # when
        value = compile_reader(schema)(b"\x00\x00\x00\x00\x07" + compile_writer(schema)(datum), 5)

        # then
        self.assertEqual(value, datum)

    def test_should_keep_the_bits_of_nan_and_infinities(self):
        # given
        schema = avro.schema.parse('{"type": "record", "name": "R", "fields": ['
                                   '{"name": "f", "type": "float"}, {"name": "d", "type": "double"}]}')
        for value in (math.nan, math.inf, -math.inf, -0.0):
            # when
            raw = compile_writer(schema)({"f": value, "d": value})
            read = compile_reader(schema)(raw)

            # then
            self.assertEqual(raw, avro_bytes(schema, {"f": value, "d": value}))
            self.assertEqual(compile_writer(schema)(read), raw)

    def test_should_read_arrays_and_maps_written_in_several_blocks_with_sizes(self):
        # given: two blocks of longs, the second with a negative count and its byte size, as Java's encoder may write
        schema = avro.schema.parse('{"type": "array", "items": "long"}')
        raw = b"\x04\x02\x04" + b"\x01\x02\x06" + b"\x00"

        # then
        self.assertEqual(compile_reader(schema)(raw), [1, 2, 3])
        self.assertEqual(compile_reader(schema)(raw), avro_value(schema, raw))

    def test_should_refuse_truncated_and_malformed_bytes_with_a_value_error(self):
        schema = avro.schema.parse(schema_text("TensorShape"))
        raw = compile_writer(schema)({"name": "conv1.weight", "shape": [16, 1, 5, 5]})
        read = compile_reader(schema)
        for cut in (1, 3, len(raw) - 1):
            with self.subTest(cut=cut), self.assertRaises(ValueError):
                read(raw[:cut])
        with self.assertRaises(ValueError):
            read(b"\x7f")  # a string length of -64
        enum = avro.schema.parse('{"type": "enum", "name": "E", "symbols": ["A", "B"]}')
        with self.assertRaises(ValueError):
            compile_reader(enum)(b"\x04")

    def test_should_refuse_what_python3_avros_validation_refuses(self):
        # given
        schema = avro.schema.parse(schema_text("IterationTelemetry"))
        datum = RandomDatum(1).of(schema)
        wrong = [
            dict(datum, unknownField=1),
            dict(datum, clock="7"),
            dict(datum, clock=1 << 63),
            dict(datum, timestamp=datetime.datetime(2026, 1, 1)),  # naive
            {k: v for k, v in datum.items() if k != "job"},
        ]
        for i, bad in enumerate(wrong):
            with self.subTest(case=i):
                # then
                with self.assertRaises((TypeError, ValueError)):
                    compile_writer(schema)(bad)
                with self.assertRaises(avro.errors.AvroTypeException):
                    avro_bytes(schema, bad)

    def test_should_take_the_first_union_branch_that_accepts_the_datum(self):
        # given: an int fits both branches; python3-avro writes the first
        schema = avro.schema.parse('["null", "long", "double"]')
        for datum in (None, 3, 2.5):
            # then
            self.assertEqual(compile_writer(schema)(datum), avro_bytes(schema, datum))

    def test_should_leave_a_logical_type_it_does_not_know_to_python3_avro(self):
        schema = avro.schema.parse('{"type": "int", "logicalType": "date"}')
        with self.assertRaises(Unsupported):
            compile_reader(schema)
        with self.assertRaises(Unsupported):
            compile_writer(schema)


if __name__ == "__main__":
    unittest.main()
