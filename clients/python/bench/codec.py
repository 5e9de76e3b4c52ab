"""CPU a record of the codec against python3-avro's DatumReader and DatumWriter, on a ModelShard and a GradientShard
shaped as the PyTorch example's (18 shards of its 1,150,138 parameters, its eight tensors).

    /usr/bin/python3 clients/python/bench/codec.py [repetitions]
"""

import datetime
import io
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
from support import schema_text  # noqa: E402  (the repository's schemas, as the registry serves them)

import avro.io  # noqa: E402
import avro.schema  # noqa: E402
import numpy as np  # noqa: E402

from paramhub_worker.avro_binary import compile_reader, compile_writer  # noqa: E402

WORKERS = ["worker-%03d" % i for i in range(4)]
NOW = datetime.datetime.now(datetime.timezone.utc)
VALUES = np.random.default_rng(1).standard_normal(63_897).astype("<f4").tobytes()
RECORDS = {
    "ModelShard": {
        "job": "pytorch-example", "shard": 3, "shards": 18, "firstParameter": 191_691, "version": 5, "minClock": 5,
        "clocks": dict.fromkeys(WORKERS, 5), "shares": dict.fromkeys(WORKERS, 0.25), "planEpoch": 1,
        "values": VALUES, "updatedAt": NOW, "threads": dict.fromkeys(WORKERS, 1), "examples": [],
        "model": "external", "finalVersion": False,
        "tensors": [{"name": n, "shape": s} for n, s in [
            ("conv1.weight", [16, 1, 5, 5]), ("conv1.bias", [16]), ("conv2.weight", [32, 16, 5, 5]),
            ("conv2.bias", [32]), ("fc1.weight", [720, 1568]), ("fc1.bias", [720]), ("fc2.weight", [10, 720]),
            ("fc2.bias", [10])]],
    },
    "GradientShard": {
        "job": "pytorch-example", "shard": 3, "worker": "worker-001", "clock": 5, "baseVersion": 5, "sampleCount": 32,
        "loss": 40.5, "values": VALUES, "encoding": "FLOAT32", "examples": [],
    },
}


def cpu_ms(action, repetitions):
    started = time.process_time()
    for _ in range(repetitions):
        action()
    return (time.process_time() - started) / repetitions * 1000


def main():
    repetitions = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    for name, datum in RECORDS.items():
        schema = avro.schema.parse(schema_text(name))
        write, read = compile_writer(schema), compile_reader(schema)
        reader, writer = avro.io.DatumReader(schema, schema), avro.io.DatumWriter(schema)
        raw = write(datum)

        def avro_write():
            buffer = io.BytesIO()
            writer.write(datum, avro.io.BinaryEncoder(buffer))

        def avro_read():
            reader.read(avro.io.BinaryDecoder(io.BytesIO(raw)))

        print("%s (%d bytes): decode %.3f ms compiled, %.3f ms python3-avro; encode %.3f ms compiled, %.3f ms "
              "python3-avro" % (name, len(raw), cpu_ms(lambda: read(raw), repetitions), cpu_ms(avro_read, repetitions),
                                cpu_ms(lambda: write(datum), repetitions), cpu_ms(avro_write, repetitions)))


if __name__ == "__main__":
    main()
