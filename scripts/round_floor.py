#!/usr/bin/env python3
"""The broker CPU of one ParamHub round's bytes, with no training: a floor for a round on this machine.

One round, in lockstep, all clients in this process (confluent-kafka):
  1. a plain idempotent producer (acks=all, linger.ms=0) sends one gradient, VALUES float32 as records of at most
     RECORD_VALUES each keyed "cnn/0", "cnn/1", ..., to a new `gradients` topic of 8 partitions;
  2. an aggregator (a read_committed consumer in a group) reads them all, then in a transaction sends the same
     records to a new compacted `model` topic of 8 partitions, adds its consumer's offsets to the transaction
     (send_offsets_to_transaction) and commits; with --commit-interval-ms N it commits only once the transaction
     is N ms old, as the aggregator's Streams app does (commit.interval.ms 100), and later rounds join it;
  3. READERS read_uncommitted consumers, assigned every partition of `model`, each receive all of them.
After WARMUP rounds it times ROUNDS more, reading the broker's CPU (utime + stime of /proc/PID/stat) before and
after, and prints one JSON line. Byte counts are keys plus values as produced (in) and as fetched (out).

  round_floor.py --bootstrap-servers HOST:PORT --broker-pid PID [--rounds 300] [--warmup 100] [--readers 4]
      [--values 1150138] [--record-values 65536] [--fetch-wait-ms 5] [--commit-interval-ms 0]
"""

import argparse
import json
import os
import struct
import sys
import time

import numpy as np
from confluent_kafka import OFFSET_BEGINNING, Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

PARTITIONS = 8
TIMEOUT_S = 60.0


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bootstrap-servers", required=True)
    parser.add_argument("--broker-pid", type=int, required=True, help="the broker JVM's pid")
    parser.add_argument("--rounds", type=int, default=300, help="measured rounds (default 300)")
    parser.add_argument("--warmup", type=int, default=100, help="rounds before the measurement (default 100)")
    parser.add_argument("--readers", type=int, default=4, help="consumers of the model (default 4)")
    parser.add_argument("--values", type=int, default=1150138, help="float32 values of the model (default 1150138)")
    parser.add_argument("--record-values", type=int, default=65536, help="float32 values a record (default 65536)")
    parser.add_argument("--commit-interval-ms", type=int, default=0,
                        help="commit the model's transaction once it is this old, as Streams' commit.interval.ms "
                             "(default 0: every round)")
    parser.add_argument("--fetch-wait-ms", type=int, default=5, help="consumers' fetch.wait.max.ms (default 5)")
    args = parser.parse_args()
    if args.rounds < 1 or args.warmup < 0 or args.readers < 1 or args.record_values < 2 or args.values < 2:
        parser.error("need --rounds >= 1, --warmup >= 0, --readers >= 1, --values and --record-values >= 2")
    return args


def broker_cpu_s(pid):
    """The CPU seconds (user + system) process `pid` has used so far."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()  # fields from the 3rd on: the name may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # fields 14 and 15


def own_cpu_s():
    times = os.times()
    return times.user + times.system


def create_topics(admin, gradients, model):
    futures = admin.create_topics([
        NewTopic(gradients, num_partitions=PARTITIONS, replication_factor=1),
        NewTopic(model, num_partitions=PARTITIONS, replication_factor=1, config={"cleanup.policy": "compact"}),
    ], operation_timeout=TIMEOUT_S)
    for future in futures.values():
        future.result()
    deadline = time.monotonic() + TIMEOUT_S
    while True:  # until both topics have a leader for every partition
        topics = admin.list_topics(timeout=TIMEOUT_S).topics
        if all(t in topics and topics[t].error is None and len(topics[t].partitions) == PARTITIONS
               and all(p.leader >= 0 for p in topics[t].partitions.values()) for t in (gradients, model)):
            return
        if time.monotonic() > deadline:
            raise RuntimeError("topics %s and %s have no leaders after %.0f s" % (gradients, model, TIMEOUT_S))
        time.sleep(0.1)


class Delivery:
    """A delivery callback that remembers the first failure."""

    def __init__(self, name):
        self.name = name
        self.failure = None

    def __call__(self, error, message):
        if error is not None and self.failure is None:
            self.failure = "%s: %s to %s" % (self.name, error, message.topic())

    def check(self):
        if self.failure is not None:
            raise RuntimeError(self.failure)


def take(consumer, timeout_s):
    """The records `consumer` has now, waiting at most `timeout_s` for the first; raises on an error record."""
    first = consumer.poll(timeout_s)  # returns at the first record, where consume() waits for a full batch
    messages = [] if first is None else [first] + consumer.consume(num_messages=1000, timeout=0)
    for message in messages:
        if message.error() is not None:
            raise RuntimeError("consumer of %s: %s" % (message.topic(), message.error()))
    return messages


def round_of(message, sizes):
    """The round a record belongs to (its first 8 bytes); checks its key and size (`sizes`: key -> bytes)."""
    key, value = message.key(), message.value()
    if key not in sizes or value is None or len(value) != sizes[key]:
        raise RuntimeError("unexpected record on %s: key %r, %s bytes" % (
            message.topic(), key, None if value is None else len(value)))
    return struct.unpack_from("<q", value)[0]


def main():
    args = parse_args()
    shards = -(-args.values // args.record_values)
    base = np.random.default_rng(7).standard_normal(args.values).astype("<f4").tobytes()
    step = 4 * args.record_values
    chunks = [base[i:i + step] for i in range(0, len(base), step)]
    keys = [("cnn/%d" % s).encode() for s in range(shards)]
    sizes = {k: len(c) for k, c in zip(keys, chunks)}
    record_bytes = sum(len(k) + len(c) for k, c in zip(keys, chunks))

    run = "%s-%d" % (time.strftime("%Y%m%d-%H%M%S"), os.getpid())
    gradients, model = "round-floor-gradients-" + run, "round-floor-model-" + run
    common = {"bootstrap.servers": args.bootstrap_servers}
    admin = AdminClient(common)
    create_topics(admin, gradients, model)

    producing = {**common, "acks": "all", "linger.ms": 0, "partitioner": "murmur2_random",
                 "message.max.bytes": 10 * 1024 * 1024}
    consuming = {**common, "enable.auto.commit": False, "auto.offset.reset": "earliest",
                 "fetch.wait.max.ms": args.fetch_wait_ms, "fetch.max.bytes": 64 * 1024 * 1024,
                 "max.partition.fetch.bytes": 8 * 1024 * 1024}
    producer = Producer({**producing, "enable.idempotence": True, "client.id": "round-floor-worker"})
    aggregator = Consumer({**consuming, "group.id": "round-floor-aggregator-" + run,
                           "isolation.level": "read_committed", "client.id": "round-floor-aggregator"})
    aggregator.subscribe([gradients])
    transactional = Producer({**producing, "transactional.id": "round-floor-" + run,
                              "client.id": "round-floor-aggregator-producer"})
    transactional.init_transactions(TIMEOUT_S)
    readers = []
    for i in range(args.readers):
        # confluent-kafka 1.7 insists on a group.id; the readers never subscribe nor commit
        reader = Consumer({**consuming, "group.id": "round-floor-reader-%s-%d" % (run, i),
                           "isolation.level": "read_uncommitted", "client.id": "round-floor-reader-%d" % i})
        reader.assign([TopicPartition(model, p, OFFSET_BEGINNING) for p in range(PARTITIONS)])
        readers.append(reader)
    sent, committed = Delivery("gradient producer"), Delivery("transactional producer")

    class Transaction:
        began = None  # when the open transaction began (monotonic seconds), or None

    transaction = Transaction()

    def commit():
        transactional.send_offsets_to_transaction(
            aggregator.position(aggregator.assignment()), aggregator.consumer_group_metadata(), TIMEOUT_S)
        transactional.commit_transaction(TIMEOUT_S)
        transaction.began = None

    def one_round(r):
        prefix = struct.pack("<q", r)
        for key, chunk in zip(keys, chunks):
            producer.produce(gradients, key=key, value=prefix + chunk[8:], on_delivery=sent)
        if producer.flush(TIMEOUT_S):
            raise RuntimeError("round %d: gradient records not delivered within %.0f s" % (r, TIMEOUT_S))
        sent.check()

        received = {}
        deadline = time.monotonic() + TIMEOUT_S
        while len(received) < shards:
            for message in take(aggregator, 0.1):
                if round_of(message, sizes) != r:
                    raise RuntimeError("round %d: the aggregator read a gradient of round %d" % (
                        r, round_of(message, sizes)))
                received[message.key()] = message.value()
            if time.monotonic() > deadline:
                raise RuntimeError("round %d: the aggregator read %d of %d gradient records" % (
                    r, len(received), shards))

        if transaction.began is None:
            transactional.begin_transaction()
            transaction.began = time.monotonic()
        for key in keys:
            transactional.produce(model, key=key, value=received[key], on_delivery=committed)
        if time.monotonic() - transaction.began >= args.commit_interval_ms / 1000:
            commit()
        else:
            transactional.poll(0)
        committed.check()

        pending = {i: set() for i in range(len(readers))}  # reader -> the keys of this round it has
        deadline = time.monotonic() + TIMEOUT_S
        while pending:
            progressed = False
            for i in list(pending):
                # wait a little on the first reader that has nothing yet this pass; the others are only drained
                for message in take(readers[i], 0 if progressed else 0.005):
                    progressed = True
                    if round_of(message, sizes) != r:
                        raise RuntimeError("round %d: reader %d read a model record of round %d" % (
                            r, i, round_of(message, sizes)))
                    pending[i].add(message.key())
                if len(pending[i]) == shards:
                    del pending[i]
            if pending and time.monotonic() > deadline:
                raise RuntimeError("round %d: readers still missing records: %s" % (
                    r, {i: shards - len(k) for i, k in pending.items()}))

    for r in range(args.warmup):
        one_round(r)
    cpu0, own0, wall0 = broker_cpu_s(args.broker_pid), own_cpu_s(), time.perf_counter()
    for r in range(args.warmup, args.warmup + args.rounds):
        one_round(r)
    wall1, own1, cpu1 = time.perf_counter(), own_cpu_s(), broker_cpu_s(args.broker_pid)
    if transaction.began is not None:
        commit()

    for reader in readers:
        reader.close()
    aggregator.close()
    producer.flush(TIMEOUT_S)
    transactional.flush(TIMEOUT_S)
    for future in admin.delete_topics([gradients, model], operation_timeout=TIMEOUT_S).values():
        try:
            future.result()
        except Exception as e:  # the measurement is done: a topic left behind is only noted
            print("round_floor.py: could not delete a topic: %s" % e, file=sys.stderr)

    print(json.dumps({
        "readers": args.readers,
        "commit_interval_ms": args.commit_interval_ms,
        "rounds": args.rounds,
        "bytes_in_per_round": 2 * record_bytes,
        "bytes_out_per_round": (1 + args.readers) * record_bytes,
        "broker_cpu_ms_per_round": round(1000 * (cpu1 - cpu0) / args.rounds, 2),
        "ms_per_round": round(1000 * (wall1 - wall0) / args.rounds, 2),
        "client_cpu_ms_per_round": round(1000 * (own1 - own0) / args.rounds, 2),
    }), flush=True)


if __name__ == "__main__":
    main()
