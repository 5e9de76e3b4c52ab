"""The model as a worker reads it from ``model`` (docs/protocol.md, "A worker's life", steps 3 and 4).

``ModelView`` keeps, of each shard of one job, the newest record (a higher ``version``, or the same version with
a higher ``minClock``) and, for pipelined BSP, the few versions before it (topology/.../client/ModelView.java).
``ModelReader`` is a consumer of ``model`` without a group: it reads only the partitions that hold the job's
shards (keys ``job/shard``, Kafka's default partitioner), passes over other jobs' records without decoding them,
and hands each decoded ``ModelShard`` to a view. A record it cannot decode is set aside on ``dead-letters``.
"""

import time

import numpy as np
from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, TopicPartition

from .encoding import partition_for, unpack_float32


class ModelView:
    """The newest version seen of each shard of one job (and, for pipelined BSP, the ``kept`` newest)."""

    def __init__(self, job, shards, kept=1):
        self.job = job
        self.kept = kept
        self.held = [[] for _ in range(shards)]

    def offer(self, record):
        """Keeps ``record`` (a ModelShard dict) if it is of this job and newer than what is held; says whether."""
        shard = record.get("shard", -1)
        if record.get("job") != self.job or not 0 <= shard < len(self.held):
            return False
        versions = self.held[shard]
        newest = versions[-1] if versions else None
        if newest is not None and (newest["version"] > record["version"] or (
                newest["version"] == record["version"] and newest["minClock"] >= record["minClock"])):
            return False
        if newest is not None and newest["version"] == record["version"]:
            versions[-1] = record
        else:
            versions.append(record)
            del versions[:-self.kept]
        return True

    def complete(self):
        return all(self.held)

    def newest(self, shard):
        versions = self.held[shard]
        return versions[-1] if versions else None

    def min_clock(self):
        """Smallest ``minClock`` over the shards, -1 until every shard has been seen."""
        return min(v[-1]["minClock"] for v in self.held) if self.complete() else -1

    def applied_clocks(self, worker):
        """How many clocks of ``worker`` every shard includes, -1 until every shard has been seen."""
        if not self.complete():
            return -1
        return min(v[-1].get("clocks", {}).get(worker, 0) for v in self.held)

    def versions(self):
        """Version of each shard's newest record, -1 where none has been seen."""
        return [v[-1]["version"] if v else -1 for v in self.held]

    def at(self, version):
        """The model at ``version``: each shard's record of it, or the oldest the shard holds when it has not that one."""
        pinned = ModelView(self.job, len(self.held), 1)
        for versions in self.held:
            if not versions:
                raise RuntimeError("model of job %s is incomplete" % self.job)
            chosen = versions[0]
            for candidate in versions:
                if candidate["version"] == version:
                    chosen = candidate
            pinned.offer(chosen)
        return pinned

    def plan_shares(self):
        shard0 = self.newest(0)
        return shard0.get("shares", {}) if shard0 else {}

    def plan_threads(self):
        shard0 = self.newest(0)
        return shard0.get("threads", {}) if shard0 else {}

    def plan_version(self):
        shard0 = self.newest(0)
        return shard0.get("planEpoch", -1) if shard0 else -1

    def assemble(self, parameters):
        """The whole model, a new float32 array of ``parameters`` values."""
        full = np.empty(parameters, dtype=np.float32)
        for s, versions in enumerate(self.held):
            if not versions:
                raise RuntimeError("model of job %s is incomplete" % self.job)
            first = versions[-1]["firstParameter"]
            values = unpack_float32(versions[-1]["values"])
            if first < 0 or first + len(values) > parameters:
                raise RuntimeError("shard %d of job %s holds parameters [%d, %d), outside the model's %d"
                                   % (s, self.job, first, first + len(values), parameters))
            full[first:first + len(values)] = values
        return full


class ModelReader:
    """A group-less consumer of the partitions of ``model`` that hold one job's shards."""

    def __init__(self, kafka_config, topic, job, shards, codec, dead_letters, isolation, start_offsets=None,
                 fetch_min_bytes=1):
        config = dict(kafka_config)
        config.update({
            # confluent-kafka 1.7 insists on a group id; the reader never subscribes nor commits, so it joins no group
            "group.id": "paramhub-python-worker-%s" % job,
            "enable.auto.commit": False,
            "enable.partition.eof": True,
            "auto.offset.reset": "earliest",
            "isolation.level": isolation,
        })
        config.setdefault("fetch.wait.max.ms", 50)
        config.setdefault("fetch.message.max.bytes", 8 * 1024 * 1024)
        config.setdefault("fetch.min.bytes", max(1, fetch_min_bytes))
        self.topic = topic
        self.job = job
        self.keys = {("%s/%d" % (job, s)).encode("utf-8") for s in range(shards)}
        self.codec = codec
        self.dead_letters = dead_letters
        self.consumer = Consumer(config)
        partitions = self._partition_count()
        wanted = sorted({partition_for("%s/%d" % (job, s), partitions) for s in range(shards)})
        start_offsets = start_offsets or {}
        self.next_offsets = {p: start_offsets.get(p, OFFSET_BEGINNING) for p in wanted}
        self.at_end = {p: False for p in wanted}
        self.consumer.assign([TopicPartition(topic, p, self.next_offsets[p]) for p in wanted])

    def _partition_count(self):
        metadata = self.consumer.list_topics(self.topic, timeout=30)
        topic = metadata.topics.get(self.topic)
        if topic is None or topic.error is not None or not topic.partitions:
            raise RuntimeError("topic %s does not exist (%s)" % (self.topic, None if topic is None else topic.error))
        return len(topic.partitions)

    def poll(self, timeout_s, sink):
        """Waits at most ``timeout_s`` for records, handing each of the job's ModelShards to ``sink``; returns the count."""
        first = self.consumer.poll(timeout_s)  # returns at the first record, where consume would wait for many
        messages = [] if first is None else [first] + self.consumer.consume(num_messages=1000, timeout=0)
        handed = 0
        for message in messages:
            error = message.error()
            if error is not None:
                if error.code() == KafkaError._PARTITION_EOF:
                    self.at_end[message.partition()] = True
                    self.next_offsets[message.partition()] = max(
                        message.offset(), self.next_offsets[message.partition()])
                    continue
                raise RuntimeError("reading %s: %s" % (self.topic, error))
            self.at_end[message.partition()] = False
            self.next_offsets[message.partition()] = message.offset() + 1
            if message.key() not in self.keys or message.value() is None:
                continue
            try:
                record = self.codec.decode(message.value())
            except Exception as e:  # anyone may write bytes to a topic: set them aside and go on
                self.dead_letters(message, e)
                continue
            sink(record)
            handed += 1
        return handed

    def catch_up(self, timeout_s, sink):
        """Reads up to the end each partition had when called (or to an end it then reached), within ``timeout_s``;
        False if it could not. A partition written to without pause still gets there, as Java's TopicReader does."""
        deadline = time.monotonic() + timeout_s
        ends = {p: self.consumer.get_watermark_offsets(TopicPartition(self.topic, p), timeout=timeout_s,
                                                       cached=False)[1] for p in self.next_offsets}
        while not all(self.at_end[p] or self.next_offsets[p] >= end for p, end in ends.items()):
            if time.monotonic() > deadline:
                return False
            self.poll(0.05, sink)
        return True

    def positions(self):
        """The offset of the next record per partition (OFFSET_BEGINNING where nothing was read)."""
        return dict(self.next_offsets)

    def close(self):
        self.consumer.close()
