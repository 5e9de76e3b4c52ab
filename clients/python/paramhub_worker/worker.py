"""A data-parallel worker of one job (docs/protocol.md, "A worker's life"), for a training loop written in Python.

``jobs`` and ``model`` in; ``gradients``, ``telemetry``, ``membership`` (and ``dead-letters`` for records it
cannot decode) out. The caller computes; the worker decides which clock, model version and samples each step
is, waits as the job's sync mode demands, and publishes what the caller computed::

    with Worker(WorkerConfig(bootstrap_servers=..., registry_url=..., job="j", index=0, workers=4)) as worker:
        spec = worker.join(dataset_size=len(train))
        for step in worker.clocks():
            gradient_sum, loss_sum = compute(step.parameters, train[step.samples])
            step.publish(gradient_sum, loss_sum)
        worker.leave()
        final = worker.final_parameters()
"""

import dataclasses
import datetime
import hashlib
import logging
import math
import time

import numpy as np

from .codec import AvroCodec
from .encoding import Bfloat16ErrorFeedback, first_non_finite, pack_bfloat16, pack_float32
from .errors import ModelTimeoutError, ParamHubError
from .host_group import HostMember, join_host_group
from .host_leader import HostLeader, HostSum
from .jobs import await_job
from .membership import Membership
from .model import ModelReader, ModelView
from .plan import BatchPlan, ShardLayout, contiguous_share, planned_shares, round_robin_share, worker_id
from .publisher import Publisher, now_utc
from .registry import RegistryClient
from .sync import SyncPolicy

log = logging.getLogger(__name__)

# A dead letter keeps the first 64 KiB of the record it sets aside, as the Java side does (DeadLetters.java).
MAX_ORIGINAL_BYTES = 64 * 1024

_POLL_S = 0.05


@dataclasses.dataclass
class WorkerConfig:
    """Who the worker is and where its cluster is.

    ``workers``: N, the job's worker count (None: the spec's ``expectedWorkers``). ``kafka_config``: librdkafka
    settings added to every client (security.protocol, sasl.*, ssl.*, ...). ``registry_auth``: (user, password)
    for basic auth; ``registry_ca``: a CA file for an https registry. ``threads``: the compute threads the caller
    uses while no plan says otherwise, as reported in telemetry. ``host_group``: the indices of the workers of this
    host, ``index`` among them, that sum their gradients before publishing (protocol 2, BSP only; module
    ``host_group``); None, a group of one, SSP and ASP publish this worker's own. ``host_group_address``: the
    leader's Unix socket address (default ``host_group.host_address``, in the abstract namespace).
    """

    bootstrap_servers: str
    registry_url: str
    job: str
    index: int
    workers: int = None
    topic_prefix: str = "paramhub."
    kafka_config: dict = dataclasses.field(default_factory=dict)
    registry_auth: tuple = None
    registry_ca: str = None
    model_timeout_s: float = 60.0
    job_timeout_s: float = 60.0
    threads: int = 1
    host_group: tuple = None
    host_group_address: bytes = None


class Step:
    """One clock: what to compute on and for which samples; ``publish`` sends the result."""

    def __init__(self, worker, clock, versions, parameters, samples, threads, command_epoch, wait_ms):
        self._worker = worker
        self.clock = clock
        self.versions = versions
        self.version = min(versions)
        self.parameters = parameters
        self.samples = samples
        self.threads = threads
        self.command_epoch = command_epoch
        self.wait_ms = wait_ms
        self.published = False
        self._started = time.perf_counter()

    def publish(self, gradient_sum, loss_sum, evaluation=None):
        """Sends the gradient SUM over ``samples`` (flat, P values) and the summed loss; ``evaluation``: an
        optional dict {version, samples, accuracy, loss} of the caller's own test-set evaluation."""
        if self.published:
            raise ParamHubError("clock %d was published already" % self.clock)
        compute_ms = (time.perf_counter() - self._started) * 1000.0
        self._worker._publish(self, gradient_sum, loss_sum, evaluation, compute_ms)
        self.published = True


class Worker:
    """Joins a job, yields its clocks one by one as the sync mode allows, publishes each, leaves."""

    def __init__(self, config):
        self.config = config
        self.id = worker_id(config.index)
        self.registry = RegistryClient(config.registry_url, config.registry_auth, config.registry_ca)
        self.codec = AvroCodec(self.registry)
        self.kafka = dict(config.kafka_config)
        self.kafka["bootstrap.servers"] = config.bootstrap_servers
        prefix = config.topic_prefix
        self.topics = {role: prefix + role for role in
                       ("jobs", "model", "gradients", "telemetry", "membership", "dead-letters")}
        self.spec = None
        self.start_clock = None
        self.dataset_size = None
        self._publisher = None
        self._membership = None
        self._reader = None
        self._view = None
        self._rounding = None
        self._host = None
        self._threads = config.threads
        self._left = False
        self._fetch_min = 1
        self._model_offsets = None  # where a member that took the model from its host's leader starts reading it

    # ----------------------------------------------------------------------------------------------- joining

    def join(self, dataset_size=None):
        """Finds the job, waits for every shard's current version, announces JOINED and starts heartbeats.

        Returns the JobSpec as a dict. ``dataset_size`` (the training set's n) may instead be given later with
        ``set_dataset_size``, before ``clocks``.
        """
        for role in ("gradients", "telemetry", "membership"):
            self.registry.latest(self.topics[role] + "-value")  # a missing subject fails here, clearly
        self._publisher = Publisher(self.kafka, self.codec, "paramhub-python-%s-%s" % (self.config.job, self.id))
        self._publisher.warm([self.topics[role] for role in ("membership", "gradients", "telemetry")])
        spec = await_job(self.kafka, self.topics["jobs"], self.config.job, self.codec, self.config.job_timeout_s,
                         self._set_aside)
        if spec.get("stages", 1) != 1:
            raise ParamHubError("job %s is a hybrid job (stages = %d): the Python worker computes whole models only"
                                % (spec["job"], spec["stages"]))
        workers = self.config.workers if self.config.workers is not None else spec["expectedWorkers"]
        if not 0 <= self.config.index < min(workers, spec["expectedWorkers"]):
            raise ParamHubError("worker index %d out of range: job %s has %d workers (%d configured)"
                                % (self.config.index, spec["job"], spec["expectedWorkers"], workers))
        if workers != spec["expectedWorkers"]:
            log.warning("%s: %d workers configured, job %s expects %d", self.id, workers, spec["job"],
                        spec["expectedWorkers"])
        self.workers = workers
        self.spec = spec
        self.sync = SyncPolicy.of(spec)
        self.layout = ShardLayout(spec["parameters"], spec["shards"])
        self._shard_bounds = [self.layout.bounds(shard) for shard in range(spec["shards"])]
        self._host = join_host_group(self.config.host_group, self.config.index, workers, spec,
                                     self.config.host_group_address, self.config.job_timeout_s,
                                     "contributors" in self.codec.field_names(self.topics["gradients"]),
                                     self.config.model_timeout_s)
        if spec.get("gradientEncoding", "FLOAT32") == "BFLOAT16":
            self._rounding = Bfloat16ErrorFeedback(spec["parameters"])
        self._view = ModelView(spec["job"], spec["shards"], self.sync.pipeline_depth + 1)
        committed = self._open_reader("read_committed", None)
        try:
            self._await(committed, 0, 0, "its first version")
            if not committed.catch_up(self.config.model_timeout_s, self._view.offer):
                raise ModelTimeoutError("%s could not read %s to its end within %.0f s"
                                        % (self.id, self.topics["model"], self.config.model_timeout_s))
            self.start_clock = max(0, self._view.min_clock())
            joined_at = committed.positions()
        finally:
            committed.close()
        self._fetch_min = 4 * spec["parameters"] if self.sync.waits_for_whole_versions else 1
        self._model_offsets = joined_at
        if isinstance(self._host, HostMember) and self._host.shares_model:
            log.info("%s takes the model from its host group's leader", self.id)
        else:
            self._reader = self._open_reader("read_uncommitted", joined_at, self._fetch_min)
        self._membership = Membership(self._publisher, self.topics["membership"], spec["job"], self.id,
                                      spec["sessionTimeoutMs"])
        self._membership.join(self.start_clock)
        if dataset_size is not None:
            self.set_dataset_size(dataset_size)
        log.info("%s joined job %s at clock %d", self.id, spec["job"], self.start_clock)
        return spec

    def set_dataset_size(self, n):
        """The caller's training-set size n, after ``join``: an epoch is floor(n / globalBatch) clocks."""
        if self.spec is None:
            raise ParamHubError("join the job before setting the training-set size")
        self.dataset_size = n
        self._batches = BatchPlan(n, self.spec["globalBatch"], self.spec["seed"])

    @property
    def total_clocks(self):
        """epochs x floor(n / B): the job's clock count."""
        if self.dataset_size is None:
            raise ParamHubError("tell the worker its training-set size first: join(dataset_size=n) or "
                                "set_dataset_size(n)")
        return self.spec["epochs"] * self._batches.clocks_per_epoch

    # ------------------------------------------------------------------------------------------------ clocks

    def clocks(self):
        """Yields a Step for each clock from the one joined at to the last; each must be published before the next."""
        total = self.total_clocks
        for clock in range(self.start_clock, total):
            waited = time.perf_counter()
            model = self._model_from_host(clock)
            if model is None:
                self._await(self._reader, clock, self.start_clock, "clock %d" % clock)
                pinned = self.sync.pinned_version(clock)
                model = self._view if pinned is None else self._view.at(pinned)
            wait_ms = (time.perf_counter() - waited) * 1000.0
            parameters = model.assemble(self.spec["parameters"])
            parameters.flags.writeable = False
            if isinstance(self._host, HostLeader):
                self._host.share_model(clock, model, parameters, self._reader.positions())
            shares = planned_shares(model.plan_shares(), self.workers) if self.sync.follows_planned_shares else None
            threads = model.plan_threads().get(self.id)
            if threads is not None and threads > 0:
                self._threads = threads
            else:
                threads = None
            batch = self._batches.batch(clock)
            samples = (round_robin_share(batch, self.config.index, self.workers) if shares is None
                       else contiguous_share(batch, shares, self.config.index))
            epoch = -1 if shares is None and threads is None else model.plan_version()
            step = Step(self, clock, model.versions(), parameters, samples, threads, epoch, wait_ms)
            yield step
            if not step.published:
                raise ParamHubError("clock %d was not published: call step.publish(...) before the next clock"
                                    % clock)

    def _model_from_host(self, clock):
        """The model of ``clock`` as this member's host group leader shares it, or None when this worker reads
        ``model`` itself (from where the leader's reader had reached, when it did not before)."""
        if self._reader is not None:
            return None
        model = self._host.await_model(clock, self.spec["sessionTimeoutMs"] / 1000.0)
        if model is not None:
            self._model_offsets = model.offsets
            return model
        log.warning("%s reads the model itself from clock %d on (offsets %s)", self.id, clock, self._model_offsets)
        self._reader = self._open_reader("read_uncommitted", self._model_offsets, self._fetch_min)
        return None

    def _publish(self, step, gradient_sum, loss_sum, evaluation, compute_ms):
        spec = self.spec
        gradient = np.asarray(gradient_sum).reshape(-1)
        if gradient.size != spec["parameters"]:
            raise ValueError("the gradient has %d values, the model %d" % (gradient.size, spec["parameters"]))
        float32 = np.asarray(gradient, dtype=np.float32)  # published before this returns: no copy of its own
        bad = first_non_finite(float32)
        if bad is not None or not math.isfinite(loss_sum):
            raise ValueError("clock %d: the gradient or loss is not finite (first bad value at %s); the aggregator "
                             "would refuse it" % (step.clock, "none" if bad is None else bad))
        count = len(step.samples)
        shipped, sent = self._gradient_to_ship(step, HostSum([self.config.index], count, float(loss_sum), float32))
        if shipped is not None and not sent:
            self._send_gradients(step, shipped)
        telemetry = {
            "job": spec["job"], "worker": self.id, "clock": step.clock, "samples": count,
            "computeMs": compute_ms, "waitMs": step.wait_ms, "threads": self._threads,
            "batchShare": count / spec["globalBatch"], "commandEpoch": step.command_epoch,
            "loss": float(loss_sum), "timestamp": now_utc()}
        if evaluation is not None:
            telemetry["evaluation"] = {"version": int(evaluation["version"]), "samples": int(evaluation["samples"]),
                                       "accuracy": float(evaluation["accuracy"]), "loss": float(evaluation["loss"])}
        self._publisher.send(self.topics["telemetry"], "%s/%s" % (spec["job"], self.id), telemetry)
        self._publisher.flush()
        if isinstance(self._host, HostLeader):
            self._host.confirm(shipped)
        self._membership.clock = step.clock + 1

    def _gradient_to_ship(self, step, own):
        """What this worker publishes as the clock's gradient, and whether it is sent already: ``own``, its host
        group's sum (the group's leader; under FLOAT32 each shard of the sum is sent as soon as it is added), or
        None (a member of a group whose leader's sum holds ``own``)."""
        if isinstance(self._host, HostLeader):
            contributions = self._host.gather(step.clock, step.versions, self.spec["sessionTimeoutMs"] / 1000.0)
            if contributions and self._rounding is None:
                return self._host.add_up(own, contributions, self._shard_bounds,
                                         lambda host_sum, shard: self._send_shard(step, host_sum, shard,
                                                                                  host_sum.gradient)), True
            return self._host.add_up(own, contributions), False
        if isinstance(self._host, HostMember) and self._host.hand_over(step.clock, step.versions, own.sample_count,
                                                                        own.loss, own.gradient):
            return None, False
        return own, False

    def _send_gradients(self, step, shipped):
        """One GradientShard a shard, in shard order, of ``shipped`` (a HostSum), rounded as the job's encoding
        says: under BFLOAT16 with this worker's error feedback, which a clock without samples leaves alone."""
        bfloat16 = self._rounding is not None
        wire = self._rounding.round(shipped.gradient) if bfloat16 and shipped.sample_count > 0 else shipped.gradient
        for shard in range(self.layout.shards):
            self._send_shard(step, shipped, shard, wire)

    def _send_shard(self, step, shipped, shard, wire):
        """The GradientShard of ``shard`` of ``shipped`` (a HostSum), its values taken from ``wire`` (the gradient
        as the job's encoding rounds it)."""
        job = self.spec["job"]
        bfloat16 = self._rounding is not None
        first, end = self._shard_bounds[shard]
        record = {
            "job": job, "shard": shard, "worker": self.id, "clock": step.clock,
            "baseVersion": step.versions[shard], "sampleCount": shipped.sample_count, "loss": shipped.loss,
            "values": pack_bfloat16(wire[first:end]) if bfloat16 else pack_float32(wire[first:end]),
            "encoding": "BFLOAT16" if bfloat16 else "FLOAT32"}
        contributors = shipped.contributor_ids()
        if contributors:  # a protocol-1 record leaves the field out, for a registry that lacks it
            record["contributors"] = contributors
        self._publisher.send(self.topics["gradients"], "%s/%d" % (job, shard), record)

    def _await(self, reader, clock, first_clock, what):
        """Reads ``model`` until every shard is held and the sync mode lets ``clock`` start."""
        deadline = time.monotonic() + self.config.model_timeout_s
        view = self._view
        reader.poll(0, view.offer)
        while not (view.complete() and self.sync.may_start(clock, first_clock, view.min_clock(),
                                                           view.applied_clocks(self.id))):
            if self._publisher is not None:
                self._publisher.fail_if_send_failed()
            if time.monotonic() > deadline:
                needed = self.sync.min_clock_to_start(clock)
                hint = ("Is the aggregator running, and did it accept the job? (It sets a spec it refuses aside on "
                        "%s as INVALID_JOB.)" % self.topics["dead-letters"] if -1 in view.versions() else
                        "Are the aggregator and all %d workers up?" % self.spec["expectedWorkers"])
                raise ModelTimeoutError(
                    "%s waited %.0f s for the model of job %s (for %s: minClock %s, own clocks %d); shard versions "
                    "seen: %s. %s" % (self.id, self.config.model_timeout_s, self.config.job, what,
                                       "any" if needed is None else ">= %d" % max(0, needed),
                                       self.sync.own_clocks_to_start(clock, first_clock), view.versions(), hint))
            reader.poll(_POLL_S, view.offer)

    # --------------------------------------------------------------------------------------------- leaving

    def leave(self):
        """Announces LEFT, stops the heartbeats and closes the producer (the model stays readable). LEFT says
        ``finished`` once this worker has sent every clock of the job, so that the aggregator marks the final
        version (docs/protocol.md, "Leave")."""
        if self._left or self._membership is None:
            return
        self._left = True
        self._membership.leave(self._membership.clock >= self.total_clocks)
        self._publisher.flush()

    def final_parameters(self, timeout_s=None):
        """The model once the job's last clock is in it (BSP: minClock = last + 1; SSP, ASP: this worker's last
        clock), as a float32 array."""
        total = self.total_clocks
        if self._reader is None:
            self._reader = self._open_reader("read_uncommitted", self._model_offsets)
        deadline = time.monotonic() + (self.config.model_timeout_s if timeout_s is None else timeout_s)
        view = self._view
        while True:
            self._reader.poll(0 if view.complete() else _POLL_S, view.offer)
            if view.complete() and (view.min_clock() >= total if self.sync.mode == "BSP"
                                    else view.applied_clocks(self.id) >= total):
                return view.assemble(self.spec["parameters"])
            if time.monotonic() > deadline:
                raise ModelTimeoutError("%s: the model of job %s did not reach clock %d in time; shard versions "
                                        "seen: %s" % (self.id, self.config.job, total, view.versions()))
            self._reader.poll(_POLL_S, view.offer)

    def close(self):
        """Stops the heartbeats (without LEFT, if ``leave`` was not called), leaves the host group and closes every
        client."""
        if self._host is not None:
            self._host.close()
            self._host = None
        if self._membership is not None:
            self._membership.stop()
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._publisher is not None:
            self._publisher.producer.flush(10)

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        if error is None:
            self.leave()
        self.close()
        return False

    # ------------------------------------------------------------------------------------------- internals

    def _open_reader(self, isolation, start_offsets, fetch_min_bytes=1):
        return ModelReader(self.kafka, self.topics["model"], self.spec["job"], self.spec["shards"], self.codec,
                           self._set_aside, isolation, start_offsets, fetch_min_bytes)

    def _set_aside(self, message, error):
        """A record of ``jobs`` or ``model`` that does not decode: logged and sent to ``dead-letters`` as MALFORMED."""
        log.warning("%s could not decode the record at %s[%d]@%d: %s", self.id, message.topic(),
                    message.partition(), message.offset(), error)
        stamp = message.timestamp()[1]
        value = message.value()
        try:
            self._publisher.send(self.topics["dead-letters"], (message.key() or b"").decode("utf-8", "replace"), {
                "sourceTopic": message.topic(), "partition": message.partition(), "offset": message.offset(),
                "reason": "MALFORMED", "error": "%s could not deserialize it: %s" % (self.id, error),
                "originalBytes": value[:MAX_ORIGINAL_BYTES] if value is not None else None,
                "originalLength": len(value) if value is not None else -1,
                "originalSha256": hashlib.sha256(value).digest() if value is not None else None,
                "timestamp": datetime.datetime.fromtimestamp(stamp / 1000.0, datetime.timezone.utc)})
        except Exception:
            log.exception("%s could not set the record aside on %s", self.id, self.topics["dead-letters"])
