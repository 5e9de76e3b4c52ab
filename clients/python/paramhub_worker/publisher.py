"""A worker's one producer, for ``gradients``, ``telemetry``, ``membership`` and ``dead-letters``.

Idempotent with ``acks=all``, a 1 ms linger (a clock's records leave in one request when flushed), no
transactions, and librdkafka's ``murmur2_random`` partitioner: Kafka's Java default partitioner for keyed
records, so ``job/shard`` lands on the partition the aggregator's shard task reads. Values are Avro in the
registry's wire format. Thread-safe: the heartbeat thread sends through it too.
"""

import datetime
import threading

from confluent_kafka import Producer

from .errors import PublishError


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc)


class Publisher:
    """Encodes dicts with an AvroCodec and sends them keyed; remembers the first failed delivery."""

    def __init__(self, kafka_config, codec, name):
        config = dict(kafka_config)
        config.setdefault("enable.idempotence", True)
        config.setdefault("acks", "all")
        config.setdefault("linger.ms", 1)
        config.setdefault("partitioner", "murmur2_random")
        config.setdefault("message.max.bytes", 8 * 1024 * 1024)
        config.setdefault("client.id", name)
        self.codec = codec
        self.name = name
        self.producer = Producer(config)
        self._failure = None
        self._lock = threading.Lock()

    def warm(self, topics, timeout_s=30.0):
        """Fetches the metadata of ``topics`` now: librdkafka otherwise holds a topic's first record about a second."""
        for topic in topics:
            self.producer.list_topics(topic, timeout=timeout_s)

    def send(self, topic, key, datum):
        """Encodes ``datum`` with ``topic``'s latest value schema and sends it keyed ``key`` (a str)."""
        value = self.codec.encode(topic, datum)
        while True:
            try:
                self.producer.produce(topic, value=value, key=key.encode("utf-8"), on_delivery=self._delivered)
                break
            except BufferError:
                # the local queue is full: let deliveries drain it
                self.producer.poll(0.05)
        self.producer.poll(0)

    def flush(self, timeout_s=60.0):
        """Sends what is queued now and waits for the broker's acks; PublishError if a send failed."""
        left = self.producer.flush(timeout_s)
        if left:
            raise PublishError("%s: %d records not delivered within %.0f s" % (self.name, left, timeout_s))
        self.fail_if_send_failed()

    def fail_if_send_failed(self):
        with self._lock:
            failure = self._failure
        if failure is not None:
            raise PublishError("%s could not publish to Kafka: %s" % (self.name, failure))

    def _delivered(self, error, message):
        if error is not None:
            with self._lock:
                if self._failure is None:
                    self._failure = "%s to %s" % (error, message.topic())
