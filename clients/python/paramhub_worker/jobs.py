"""Finding a job's spec on ``jobs`` (docs/protocol.md, "A worker's life", step 1).

Reads ``jobs`` from the beginning, committed records only, and keeps the newest record keyed by the job's name
whose spec passes ``problems``; waits until it has one and has read to the end of the topic. ``problems`` checks
what this worker relies on (the bounds of topology/.../jobs/JobSpecs.java and an external model's layout), not
what only the Java side knows (built-in models' parameter counts, data set names).
"""

import logging
import re
import time

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, TopicPartition

from .errors import JobNotFoundError

log = logging.getLogger(__name__)

_JOB_NAME = re.compile(r"[A-Za-z0-9._-]{1,100}")
MAX_PARAMETERS = 1 << 26
MAX_SHARDS = 4096
MAX_WORKERS = 1000
MAX_GLOBAL_BATCH = 1 << 20
MAX_EPOCHS = 10000
MAX_STALENESS = 10000
MAX_SESSION_TIMEOUT_MS = 3600000
MAX_PIPELINE_DEPTH = 4


def _out_of(problems, spec, field, low, high):
    value = spec.get(field)
    if not isinstance(value, int) or not low <= value <= high:
        problems.append("%s must be between %d and %d, not %r" % (field, low, high, value))
        return True
    return False


def problems(spec):
    """What is wrong with a JobSpec dict, one sentence a problem; empty when this worker can run it."""
    found = []
    if not _JOB_NAME.fullmatch(spec.get("job", "")):
        found.append("job name %r must be 1-100 of A-Z a-z 0-9 . _ -" % spec.get("job"))
    bad_parameters = _out_of(found, spec, "parameters", 1, MAX_PARAMETERS)
    if bad_parameters or not 1 <= spec.get("shards", 0) <= min(spec["parameters"], MAX_SHARDS):
        found.append("shards must be between 1 and the parameter count, at most %d, not %r"
                     % (MAX_SHARDS, spec.get("shards")))
    _out_of(found, spec, "staleness", 0, MAX_STALENESS)
    _out_of(found, spec, "globalBatch", 1, MAX_GLOBAL_BATCH)
    _out_of(found, spec, "expectedWorkers", 1, MAX_WORKERS)
    if spec.get("globalBatch", 0) < spec.get("expectedWorkers", 0):
        found.append("globalBatch must be at least the worker count")
    _out_of(found, spec, "epochs", 1, MAX_EPOCHS)
    _out_of(found, spec, "sessionTimeoutMs", 1, MAX_SESSION_TIMEOUT_MS)
    if not _out_of(found, spec, "pipelineDepth", 0, MAX_PIPELINE_DEPTH):
        if spec["pipelineDepth"] > 0 and spec.get("syncMode") != "BSP":
            found.append("pipelineDepth needs BSP")
    rate = spec.get("learningRate")
    if not (isinstance(rate, float) and 0 < rate < float("inf")):
        found.append("learningRate must be > 0 and finite, not %r" % (rate,))
    if spec.get("model") == "external":
        found.extend(_external_problems(spec))
    return found


def _external_problems(spec):
    found = []
    tensors = spec.get("tensors") or []
    if not tensors:
        found.append("an external model needs tensors")
    total = 0
    for tensor in tensors:
        size = 1
        for dimension in tensor["shape"]:
            size *= dimension
        total += size
    if tensors and total != spec.get("parameters"):
        found.append("the tensors hold %d values but parameters is %r" % (total, spec.get("parameters")))
    initial = spec.get("initialParameters")
    if initial is None or len(initial) != 4 * spec.get("parameters", 0):
        found.append("an external model needs initialParameters of 4 x parameters bytes")
    return found


def await_job(kafka_config, topic, job, codec, timeout_s, on_undecodable):
    """The newest valid spec of ``job`` on ``topic``, once read up to the end; JobNotFoundError after ``timeout_s``."""
    config = dict(kafka_config)
    config.update({
        "group.id": "paramhub-python-worker-%s" % job,
        "enable.auto.commit": False,
        "enable.partition.eof": True,
        "isolation.level": "read_committed",
    })
    config.setdefault("fetch.wait.max.ms", 100)
    consumer = Consumer(config)
    try:
        metadata = consumer.list_topics(topic, timeout=30).topics.get(topic)
        if metadata is None or metadata.error is not None or not metadata.partitions:
            raise JobNotFoundError("topic %s does not exist: is ParamHub running with this topic prefix?" % topic)
        partitions = sorted(metadata.partitions)
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in partitions])
        at_end = {p: False for p in partitions}
        found = None
        key = job.encode("utf-8")
        deadline = time.monotonic() + timeout_s
        while True:
            first = consumer.poll(0.1)
            for message in [] if first is None else [first] + consumer.consume(num_messages=100, timeout=0):
                error = message.error()
                if error is not None:
                    if error.code() == KafkaError._PARTITION_EOF:
                        at_end[message.partition()] = True
                        continue
                    raise JobNotFoundError("reading %s: %s" % (topic, error))
                at_end[message.partition()] = False
                if message.key() != key or message.value() is None:
                    continue
                try:
                    spec = codec.decode(message.value())
                except Exception as e:  # a record nobody can read must not stop the worker
                    on_undecodable(message, e)
                    continue
                wrong = problems(spec)
                if wrong:
                    log.warning("passed over an invalid spec of job %s at offset %d: %s",
                                job, message.offset(), "; ".join(wrong))
                else:
                    found = spec
            if found is not None and all(at_end.values()):
                return found
            if time.monotonic() > deadline:
                if found is not None:
                    return found
                raise JobNotFoundError("job '%s' was not found on topic %s within %.0f s: submit it first"
                                       % (job, topic, timeout_s))
    finally:
        consumer.close()
