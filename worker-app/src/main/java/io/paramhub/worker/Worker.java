package io.paramhub.worker;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientEncoding;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.GradientRounding;
import io.paramhub.ml.MicroBatches;
import io.paramhub.ml.Model;
import io.paramhub.ml.PipelineModel;
import io.paramhub.ml.PipelineStage;
import io.paramhub.ml.ShardLayout;
import io.paramhub.ml.TrainTest;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.JobLookup;
import io.paramhub.topology.client.ModelView;
import io.paramhub.topology.client.TopicReader;
import io.paramhub.topology.client.UndecodableRecordHandler;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.StagePlan;
import io.paramhub.topology.sync.SyncPolicy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A training worker. Reads its job from {@code jobs} and the model from {@code model}; for each
 * clock it computes the gradient of the current model on its share of the global batch, publishes
 * one {@code GradientShard} per shard to {@code gradients} and an {@code IterationTelemetry} to
 * {@code telemetry}, then waits for the model version its sync mode requires. Announces itself on
 * {@code membership} when it joins and leaves. The orchestrator's plan reaches it with shard 0's
 * model: its batch share (BSP) and the size of its compute thread pool (every sync mode), both from
 * the clock that version starts.
 *
 * <p>It joins at the model as committed, then reads {@code model} without waiting for the aggregator's
 * transactions to commit ({@code read_uncommitted}): a version is there as soon as the aggregator has
 * produced it, and the commit (every {@code commit.interval.ms}) no longer sits inside every round. This
 * is safe because a shard task's output is a function of the records it has read: after a crash the
 * restarted task reads the same records from its last commit and produces the same versions again,
 * which a worker ignores as versions it already holds (docs/architecture.md, "Reading the model before its commit",
 * says when a re-produced version can differ).
 */
public final class Worker implements Runnable, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Worker.class);
    /** A poll returns as soon as a model record comes; the bound only paces the stop and send checks. */
    private static final Duration MODEL_POLL = Duration.ofMillis(50);

    private final WorkerSettings settings;
    private final TopicCatalog topics;
    private final Properties clientProperties;
    private final Function<JobSpec, TrainTest> dataLoader;
    private final IterationListener listener;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final AtomicReference<Exception> sendFailure = new AtomicReference<>();
    private final AtomicLong currentClock = new AtomicLong();
    private final AtomicLong firstClock = new AtomicLong();

    public Worker(
            final WorkerSettings settings,
            final TopicCatalog topics,
            final Properties clientProperties,
            final Function<JobSpec, TrainTest> dataLoader,
            final IterationListener listener) {
        this.settings = settings;
        this.topics = topics;
        this.clientProperties = clientProperties;
        this.dataLoader = dataLoader;
        this.listener = listener;
    }

    /** Loads the data set the job names, from this machine's files. */
    public static Function<JobSpec, TrainTest> loadFromSpec() {
        return spec -> DataSources.load(spec.getDataset());
    }

    /**
     * The job as this worker prepared it once: its spec, training set, model, shard layout, batch plan,
     * number of clocks, sync policy, and the arrays its clocks reuse.
     */
    private record PreparedJob(
            JobSpec spec,
            Dataset train,
            Model model,
            ShardLayout layout,
            BatchPlan batches,
            long clocks,
            SyncPolicy sync,
            GradientRounding rounding,
            StagePlan stages,
            ClockBuffers buffers) {

        /** Whether this job's workers compute pipeline stages (stages > 1). */
        boolean hybrid() {
            return stages != null;
        }
    }

    @Override
    public void run() {
        try (ParallelGradient compute = new ParallelGradient(settings.threads());
                KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                        ClientProperties.producer(clientProperties),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            final UndecodableRecordHandler deadLetters = deadLetters(producer);
            final JobSpec spec = JobLookup.await(
                    topics.jobs(), clientProperties, settings.job(), settings.jobTimeout(), deadLetters);
            JobSpecs.requireValid(spec);
            final Dataset train = dataLoader.apply(spec).train();
            final BatchPlan batches = new BatchPlan(train.size(), spec.getGlobalBatch(), spec.getSeed());
            final ShardLayout layout = JobSpecs.layout(spec);
            final PreparedJob job = new PreparedJob(
                    spec,
                    train,
                    JobSpecs.model(spec),
                    layout,
                    batches,
                    (long) spec.getEpochs() * batches.iterationsPerEpoch(),
                    SyncPolicy.of(spec),
                    JobSpecs.gradientPrecision(spec).rounding(spec.getParameters()),
                    spec.getStages() > 1 ? StagePlan.of(spec) : null,
                    new ClockBuffers(layout));
            // pipelined BSP computes clock c on version c - d while versions up to c may be in: keep d + 1;
            // a pipeline stage reads its own shards alone
            final ModelView view = new ModelView(
                    spec.getJob(),
                    spec.getShards(),
                    job.sync().pipelineDepth() + 1,
                    job.hybrid() ? job.stages().shardsOf(job.stages().stageOf(settings.index())) : null);
            final long startClock;
            final Map<TopicPartition, Long> joinedAt;
            // a pipeline stage reads the partitions of its own shards alone
            final List<String> shardKeys = job.hybrid()
                    ? job.stages().shardsOf(job.stages().stageOf(settings.index())).stream()
                            .map(shard -> ShardKeys.shard(spec.getJob(), shard))
                            .toList()
                    : null;
            try (TopicReader<String, ModelShard> committed =
                    new TopicReader<>(topics.model(), clientProperties, Map.of(), deadLetters, shardKeys)) {
                startClock = joinAt(committed, view, job.sync());
                joinedAt = committed.positions();
            }
            try (TopicReader<String, ModelShard> models = new TopicReader<>(
                            topics.model(),
                            job.sync().waitsForBarrier()
                                    ? ClientProperties.modelReads(clientProperties, modelBytes(job))
                                    : ClientProperties.uncommittedReads(clientProperties),
                            joinedAt,
                            deadLetters,
                            shardKeys);
                    ActivationExchange exchange = job.hybrid() ? exchange(producer, job) : null) {
                train(producer, models, view, job, compute, exchange, startClock);
            }
        }
        log.info("{} finished job {}", settings.workerId(), settings.job());
    }

    /**
     * Bytes of the model values this worker reads a version (its stage's shards, or all of them): under BSP a
     * worker waits for whole versions, so its fetches wait for as much; SSP and ASP workers take what is there.
     */
    private int modelBytes(final PreparedJob job) {
        if (!job.hybrid()) {
            return job.spec().getParameters() * Float.BYTES;
        }
        int values = 0;
        for (final int shard : job.stages().shardsOf(job.stages().stageOf(settings.index()))) {
            values += job.layout().length(shard);
        }
        return values * Float.BYTES;
    }

    /** A stage worker's link to its replica's neighbouring stages. */
    private ActivationExchange exchange(final KafkaProducer<String, byte[]> producer, final PreparedJob job) {
        final StagePlan stages = job.stages();
        log.info(
                "{} computes stage {} of {} of replica {} of {}: {} parameters of {}, shards {}",
                settings.workerId(),
                stages.stageOf(settings.index()),
                stages.stages(),
                stages.replicaOf(settings.index()),
                stages.replicas(),
                stages.stage(stages.stageOf(settings.index())).parameterCount(),
                job.spec().getParameters(),
                stages.shardsOf(stages.stageOf(settings.index())));
        return new ActivationExchange(
                topics,
                clientProperties,
                producer,
                job.spec(),
                stages.replicaOf(settings.index()),
                stages.stageOf(settings.index()),
                stages.stages(),
                settings.workerId());
    }

    /** From joining at {@code startClock} to leaving: the clocks, the heartbeats, the announcements. */
    private void train(
            final KafkaProducer<String, byte[]> producer,
            final TopicReader<String, ModelShard> models,
            final ModelView view,
            final PreparedJob job,
            final ParallelGradient compute,
            final ActivationExchange exchange,
            final long startClock) {
        final JobSpec spec = job.spec();
        currentClock.set(startClock);
        firstClock.set(startClock);
        announce(producer, WorkerState.JOINED, startClock);
        final ScheduledExecutorService heartbeats = startHeartbeats(producer, spec);
        log.info("{} joined job {} at clock {} of {}", settings.workerId(), spec.getJob(), startClock, job.clocks());
        try {
            for (long clock = startClock; clock < job.clocks() && !stopping.get(); clock++) {
                iterate(producer, models, view, job, compute, exchange, clock);
            }
        } finally {
            heartbeats.shutdownNow();
        }
        announce(producer, WorkerState.LEFT, currentClock.get());
        producer.flush();
        failIfSendFailed();
    }

    /**
     * Records of {@code jobs} and {@code model} that do not deserialize: logged, set aside on
     * {@code dead-letters} (reason {@code MALFORMED}, with the bytes and who could not read them) and
     * skipped, so that a bad record cannot stop the job's workers.
     */
    private UndecodableRecordHandler deadLetters(final KafkaProducer<String, byte[]> producer) {
        return error -> {
            UndecodableRecordHandler.LOG.accept(error);
            final ByteBuffer key = error.keyBuffer();
            final DeadLetter letter = DeadLetter.newBuilder()
                    .setSourceTopic(error.topicPartition().topic())
                    .setPartition(error.topicPartition().partition())
                    .setOffset(error.offset())
                    .setReason(DeadLetterReason.MALFORMED)
                    .setError(settings.workerId() + " could not deserialize it: " + error.getMessage())
                    .setOriginalBytes(error.valueBuffer())
                    .setTimestamp(Instant.ofEpochMilli(error.timestamp()))
                    .build();
            send(
                    producer,
                    topics.deadLetters(),
                    key == null
                            ? ""
                            : StandardCharsets.UTF_8.decode(key.duplicate()).toString(),
                    letter);
        };
    }

    /** One clock: wait for the model the sync mode requires, compute, publish gradient and telemetry. */
    private void iterate(
            final KafkaProducer<String, byte[]> producer,
            final TopicReader<String, ModelShard> models,
            final ModelView view,
            final PreparedJob job,
            final ParallelGradient compute,
            final ActivationExchange exchange,
            final long clock) {
        final JobSpec spec = job.spec();
        final long waitStart = System.nanoTime();
        awaitModel(models, view, job.sync(), clock, firstClock.get());
        if (stopping.get()) {
            return;
        }
        final double waitMs = (System.nanoTime() - waitStart) / 1e6;
        final long pinnedVersion = job.sync().pinnedVersion(clock);
        final ModelView model = pinnedVersion < 0 ? view : view.at(pinnedVersion);
        final float[] params = model.assembleInto(job.buffers().params());
        final long[] baseVersions = model.versions();
        final double[] planned = plannedShares(job.sync(), model);
        final Integer plannedThreads = model.planThreads().get(settings.workerId());
        if (plannedThreads != null && plannedThreads > 0 && plannedThreads != compute.threads()) {
            log.info(
                    "{} resizes its compute pool from {} to {} threads (plan version {}) at clock {}",
                    settings.workerId(),
                    compute.threads(),
                    plannedThreads,
                    model.planVersion(),
                    clock);
            compute.resize(plannedThreads);
        }
        if (job.hybrid()) {
            iterateStage(producer, job, exchange, params, baseVersions, waitMs, clock);
            return;
        }
        final int[] batch = job.batches().batch(clock);
        final int[] share = planned == null
                ? BatchPlan.roundRobinShare(batch, settings.index(), settings.workers())
                : BatchPlan.contiguousShare(batch, planned, settings.index());

        final long computeStart = System.nanoTime();
        final double[] gradient = job.buffers().zeroedGradient();
        final double loss =
                compute.accumulate(job.model(), params, job.train(), share, gradient, spec.getSeed(), clock);
        final double computeMs =
                emulateCompute((System.nanoTime() - computeStart) / 1e6, share.length, clock, compute.threads());

        final IterationTelemetry telemetry = IterationTelemetry.newBuilder()
                .setJob(spec.getJob())
                .setWorker(settings.workerId())
                .setClock(clock)
                .setSamples(share.length)
                .setComputeMs(computeMs)
                .setWaitMs(waitMs)
                .setThreads(compute.threads())
                .setBatchShare((double) share.length / spec.getGlobalBatch())
                .setCommandEpoch(planned == null && plannedThreads == null ? -1 : model.planVersion())
                .setLoss(loss)
                .setTimestamp(Instant.now())
                .build();
        publishGradient(producer, job, clock, baseVersions, share.length, loss, gradient);
        // the telemetry rides in the gradients' request: one produce request a clock, sent now rather than
        // after the producer's linger
        send(producer, topics.telemetry(), ShardKeys.worker(spec.getJob(), settings.workerId()), telemetry);
        producer.flush();
        currentClock.set(clock + 1);
        listener.onIteration(telemetry);
    }

    /**
     * One clock of a pipeline stage worker: its replica's round-robin share of the batch in micro-batches
     * through its stage ({@link StageClock}), then its stage's shards of the gradient and its telemetry.
     * Plans' shares and threads do not apply (a replica's stages must cut the same share).
     */
    private void iterateStage(
            final KafkaProducer<String, byte[]> producer,
            final PreparedJob job,
            final ActivationExchange exchange,
            final float[] params,
            final long[] baseVersions,
            final double modelWaitMs,
            final long clock) {
        final JobSpec spec = job.spec();
        final StagePlan stages = job.stages();
        final PipelineStage stage = stages.stage(stages.stageOf(settings.index()));
        final int[] share = BatchPlan.roundRobinShare(
                job.batches().batch(clock), stages.replicaOf(settings.index()), stages.replicas());
        final double[] gradient = job.buffers().zeroedGradient();
        final long sentBefore = exchange.bytesSent() + exchange.bytesReceived();
        final StageClock.Result result = StageClock.run(
                stage,
                params,
                job.train(),
                MicroBatches.split(share, spec.getMicroBatches(), ((PipelineModel) job.model()).block()),
                spec.getSeed(),
                clock,
                exchange,
                settings.modelTimeout(),
                stopping::get,
                gradient,
                settings.emulation(),
                ((PipelineModel) job.model()).computeShare(stage.index(), stages.stages()));
        if (result == null) {
            return;
        }
        final IterationTelemetry telemetry = IterationTelemetry.newBuilder()
                .setJob(spec.getJob())
                .setWorker(settings.workerId())
                .setClock(clock)
                .setSamples(share.length)
                .setComputeMs(result.computeMs())
                .setWaitMs(modelWaitMs + result.waitMs())
                .setThreads(1)
                .setBatchShare((double) share.length / spec.getGlobalBatch())
                .setCommandEpoch(-1)
                .setLoss(result.loss())
                .setTimestamp(Instant.now())
                .setStage(stage.index())
                .setActivationBytes(exchange.bytesSent() + exchange.bytesReceived() - sentBefore)
                .setActivationWaitMs(result.waitMs())
                .setParametersHeld(stage.parameterCount())
                .build();
        publishGradient(producer, job, clock, baseVersions, share.length, result.loss(), gradient);
        send(producer, topics.telemetry(), ShardKeys.worker(spec.getJob(), settings.workerId()), telemetry);
        producer.flush();
        currentClock.set(clock + 1);
        listener.onIteration(telemetry);
    }

    /**
     * The orchestrator's shares for this clock, in worker order, or null for equal round-robin shares.
     * Under BSP every worker reads shard 0's same version before a clock, so all cut the batch by the
     * same plan; a plan must name exactly this job's workers. SSP and ASP workers, at different
     * clocks, keep round-robin shares.
     */
    private double[] plannedShares(final SyncPolicy sync, final ModelView view) {
        final Map<String, Double> shares = view.planShares();
        if (!sync.followsPlannedShares() || shares.size() != settings.workers()) {
            return null;
        }
        final double[] ordered = new double[settings.workers()];
        for (int index = 0; index < ordered.length; index++) {
            final Double share = shares.get(WorkerSettings.workerId(index));
            if (share == null) {
                return null;
            }
            ordered[index] = share;
        }
        return ordered;
    }

    /** Pads the compute time as {@link ComputeEmulation} says; returns the (emulated) compute time. */
    private double emulateCompute(final double realMs, final int samples, final long clock, final int threads) {
        final double targetMs = settings.emulation().targetMs(realMs, samples, clock, threads);
        final long padNanos = (long) ((targetMs - realMs) * 1e6);
        if (padNanos > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(padNanos);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                stopping.set(true);
            }
        }
        return targetMs;
    }

    /** Announces this worker every quarter session timeout, also while it computes or waits. */
    private ScheduledExecutorService startHeartbeats(final KafkaProducer<String, byte[]> producer, final JobSpec spec) {
        final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            final Thread thread = new Thread(runnable, settings.workerId() + "-heartbeat");
            thread.setDaemon(true);
            return thread;
        });
        final long period = Math.max(50, spec.getSessionTimeoutMs() / 4);
        timer.scheduleAtFixedRate(
                () -> announce(producer, WorkerState.HEARTBEAT, currentClock.get()),
                period,
                period,
                TimeUnit.MILLISECONDS);
        return timer;
    }

    /** Stops after the current iteration. */
    @Override
    public void close() {
        stopping.set(true);
    }

    /** The clock to start from: the model's minClock once the reader has caught up with {@code model}. */
    private long joinAt(final TopicReader<String, ModelShard> models, final ModelView view, final SyncPolicy sync) {
        awaitModel(models, view, sync, 0, 0);
        models.catchUp(settings.modelTimeout(), record -> view.offer(record.value()));
        return Math.max(0, view.minClock());
    }

    /**
     * Takes the model records already fetched (so that even a worker that need not wait computes on
     * the newest model it has), then polls {@code model} until every shard is present and the sync
     * policy lets this worker, which joined at {@code firstClock}, start {@code clock}
     * ({@link SyncPolicy#mayStart}); returns the minClock.
     */
    private long awaitModel(
            final TopicReader<String, ModelShard> models,
            final ModelView view,
            final SyncPolicy sync,
            final long clock,
            final long firstClock) {
        final long deadline = System.nanoTime() + settings.modelTimeout().toNanos();
        models.poll(Duration.ZERO, record -> view.offer(record.value()));
        while (!view.complete()
                || !sync.mayStart(clock, firstClock, view.minClock(), view.appliedClocks(settings.workerId()))) {
            if (stopping.get()) {
                return view.minClock();
            }
            failIfSendFailed();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(settings.workerId() + " waited "
                        + settings.modelTimeout().toSeconds()
                        + " s for the model of job " + settings.job() + " to reach clock "
                        + Math.max(0, sync.minClockToStart(clock)) + " (to start clock " + clock
                        + "); shard versions seen: " + Arrays.toString(view.versions())
                        + ". Is the aggregator running and are all " + settings.workers() + " workers up?");
            }
            models.poll(MODEL_POLL, record -> view.offer(record.value()));
        }
        return view.minClock();
    }

    /**
     * Sends one {@code GradientShard} a shard: the gradient rounded to float32, then as the job's encoding
     * asks ({@code BFLOAT16}: with this worker's error feedback, which a clock without samples leaves alone).
     */
    private void publishGradient(
            final KafkaProducer<String, byte[]> producer,
            final PreparedJob job,
            final long clock,
            final long[] baseVersions,
            final int samples,
            final double loss,
            final double[] gradient) {
        final JobSpec spec = job.spec();
        final ShardLayout layout = job.layout();
        final boolean bfloat16 = spec.getGradientEncoding() == GradientEncoding.BFLOAT16;
        final float[] float32 = job.buffers().float32Of(gradient);
        final float[] wire = samples > 0 ? job.rounding().round(float32) : float32;
        final List<Integer> shards = job.hybrid()
                ? job.stages().shardsOf(job.stages().stageOf(settings.index()))
                : IntStream.range(0, layout.shards()).boxed().toList();
        for (final int shard : shards) {
            final GradientShard record = GradientShard.newBuilder()
                    .setJob(spec.getJob())
                    .setShard(shard)
                    .setWorker(settings.workerId())
                    .setClock(clock)
                    .setBaseVersion(baseVersions[shard])
                    .setSampleCount(samples)
                    .setLoss(loss)
                    .setValues(
                            bfloat16
                                    ? FloatPacking.packBfloat16(layout.slice(wire, shard))
                                    : job.buffers().pack(wire, layout.first(shard), layout.length(shard)))
                    .setEncoding(spec.getGradientEncoding())
                    .build();
            // serialized here and now: the reused packed bytes are free again for the next shard
            send(producer, topics.gradients(), ShardKeys.shard(spec.getJob(), shard), record);
        }
    }

    private void announce(final KafkaProducer<String, byte[]> producer, final WorkerState state, final long clock) {
        final WorkerStatus status = WorkerStatus.newBuilder()
                .setJob(settings.job())
                .setWorker(settings.workerId())
                .setState(state)
                .setClock(clock)
                .setTimestamp(Instant.now())
                .build();
        send(producer, topics.membership(), ShardKeys.worker(settings.job(), settings.workerId()), status);
    }

    private <V> void send(
            final KafkaProducer<String, byte[]> producer,
            final Topic<String, V> topic,
            final String key,
            final V value) {
        final byte[] bytes = topic.valueSerde().serializer().serialize(topic.name(), value);
        producer.send(new ProducerRecord<>(topic.name(), key, bytes), (metadata, error) -> {
            if (error != null) {
                sendFailure.compareAndSet(null, error);
            }
        });
    }

    private void failIfSendFailed() {
        final Exception error = sendFailure.get();
        if (error != null) {
            throw new IllegalStateException(
                    settings.workerId() + " could not publish to Kafka: " + error.getMessage(), error);
        }
    }
}
