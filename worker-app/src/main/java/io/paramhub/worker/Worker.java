package io.paramhub.worker;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.TrainTest;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.ModelView;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.sync.SyncPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A training worker. Reads its job from {@code jobs} and the model from {@code model}; for each
 * clock it computes the gradient of the current model on its share of the global batch, publishes
 * one {@code GradientShard} per shard to {@code gradients} and an {@code IterationTelemetry} to
 * {@code telemetry}, then waits for the model version its sync mode requires. Announces itself on
 * {@code membership} when it joins and leaves. It talks to all of them through a {@link WorkerTransport}
 * (Kafka's when it runs), learns its job once ({@link JobContext}: every job is a {@code StagePlan}, a
 * data-parallel one a single stage) and computes each clock as chosen at start-up ({@link ClockComputes}):
 * the whole model, whose batch share (BSP) and thread pool follow the orchestrator's plan in shard 0's
 * model, or one pipeline stage.
 *
 * <p>A topic-mode job's worker (its data spec a {@code topic:}) takes its examples from its partitions of the
 * data topic and sends each clock's gradient, telemetry and bad examples in one transaction with its input
 * offsets, so that a restarted worker resumes after its last committed clock: no example is trained twice,
 * none is skipped. It leaves when its input is over.
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
    private final Supplier<WorkerTransport> transports;
    private final Function<JobSpec, TrainTest> dataLoader;
    private final IterationListener listener;
    private final AtomicBoolean stopping = new AtomicBoolean();
    /** A topic-mode job's input is over: the job is over for this worker, which leaves finished. */
    private final AtomicBoolean inputOver = new AtomicBoolean();

    private final AtomicLong currentClock = new AtomicLong();
    private final AtomicLong firstClock = new AtomicLong();
    /** Whether the job streams its examples from a topic, where waiting for the others' data is no failure. */
    private volatile boolean patient;

    public Worker(
            final WorkerSettings settings,
            final TopicCatalog topics,
            final Properties clientProperties,
            final Function<JobSpec, TrainTest> dataLoader,
            final IterationListener listener) {
        this(
                settings,
                () -> new KafkaWorkerTransport(settings.workerId(), topics, clientProperties),
                dataLoader,
                listener);
    }

    /** A worker that runs beside others in this process, through the Kafka clients they share. */
    public Worker(
            final WorkerSettings settings,
            final WorkerClients clients,
            final Function<JobSpec, TrainTest> dataLoader,
            final IterationListener listener) {
        this(settings, () -> new KafkaWorkerTransport(settings.workerId(), clients), dataLoader, listener);
    }

    /** A worker that talks to its job through the transport {@code transports} opens when it runs. */
    Worker(
            final WorkerSettings settings,
            final Supplier<WorkerTransport> transports,
            final Function<JobSpec, TrainTest> dataLoader,
            final IterationListener listener) {
        this.settings = settings;
        this.transports = transports;
        this.dataLoader = dataLoader;
        this.listener = listener;
    }

    /** Loads the data set the job names, from this machine's files. */
    public static Function<JobSpec, TrainTest> loadFromSpec() {
        return spec -> DataSources.load(spec.getDataset());
    }

    /**
     * What each clock of a job needs: what the worker learned about the job, its transport, the model as it
     * reads it, how it computes a clock and how it publishes the gradient.
     */
    private record Session(
            JobContext job,
            WorkerTransport transport,
            ModelFeed models,
            ModelView view,
            ClockCompute compute,
            GradientPublisher gradients) {}

    @Override
    public void run() {
        try (WorkerTransport transport = transports.get()) {
            final HostSum hostSum = transport.hostSum(settings.job());
            try {
                runJob(transport, hostSum);
            } catch (final RuntimeException | Error e) {
                leave(hostSum, e);
                throw e;
            }
            leave(hostSum, null);
        }
        log.info("{} finished job {}", settings.workerId(), settings.job());
    }

    /**
     * Leaves the host's sum, if there is one: the others of this host wait no more for this worker's gradients. Where
     * the worker failed ({@code failure}), a failure to send the clocks its leaving completed is added to that one
     * rather than hiding it.
     */
    private void leave(final HostSum hostSum, final Throwable failure) {
        if (hostSum == null) {
            return;
        }
        try {
            GradientPublisher.leave(hostSum, settings.index());
        } catch (final RuntimeException e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }

    /** From learning the job to leaving it; {@code hostSum}: the sum this worker may take part in, or null. */
    private void runJob(final WorkerTransport transport, final HostSum hostSum) {
        final JobSpec spec = transport.awaitJob(settings.job(), settings.jobTimeout());
        JobSpecs.requireValid(spec);
        final JobContext job = JobContext.prepare(spec, settings.index(), dataLoader);
        final ModelView view = job.newView(transport::refuseModel);
        final long startClock;
        final Map<TopicPartition, Long> joinedAt;
        try (ModelFeed committed = transport.readCommittedModel(job.shardKeys())) {
            startClock = joinAt(transport, committed, view, job.sync());
            joinedAt = committed.positions();
        }
        // once joined; a job the aggregator never took still fails at the model timeout
        patient = job.streamed();
        try (ModelFeed models = transport.readModel(
                        job.shardKeys(), joinedAt, job.sync().waitsForBarrier(), job.versionBytes());
                ClockCompute compute = ClockComputes.forJob(
                        job,
                        settings,
                        transport,
                        // a topic-mode worker may wait long for examples: it looks for the job's deletion meanwhile
                        job.streamed() ? () -> deletedWhileWaiting(models, view) : stopping::get,
                        this::endOfInput)) {
            final long fromClock = Math.max(startClock, compute.resumeClock());
            train(
                    new Session(job, transport, models, view, compute, publisher(job, transport, hostSum, fromClock)),
                    fromClock);
        }
    }

    /** Sends this worker's gradients: through its host's sum if the job suits one and it joins it, else on its own. */
    private GradientPublisher publisher(
            final JobContext job, final WorkerTransport transport, final HostSum hostSum, final long startClock) {
        if (hostSum != null && JobSpecs.summableOnHost(job.spec()) && hostSum.join(settings.index(), startClock)) {
            return new GradientPublisher(job, settings.workerId(), settings.index(), transport, hostSum);
        }
        return new GradientPublisher(job, settings.workerId(), transport);
    }

    /** From joining at {@code startClock} to leaving: the clocks, the heartbeats, the announcements. */
    private void train(final Session session, final long startClock) {
        final JobSpec spec = session.job().spec();
        currentClock.set(startClock);
        firstClock.set(startClock);
        announce(session.transport(), WorkerState.JOINED, startClock);
        final ScheduledExecutorService heartbeats = startHeartbeats(session.transport(), spec);
        log.info(
                "{} joined job {} at clock {} of {}",
                settings.workerId(),
                spec.getJob(),
                startClock,
                session.job().clocks());
        try {
            for (long clock = startClock; clock < session.job().clocks() && !stopping.get(); clock++) {
                iterate(session, clock);
            }
        } finally {
            heartbeats.shutdownNow();
        }
        final boolean finished = session.job().streamed()
                ? inputOver.get()
                : currentClock.get() >= session.job().clocks();
        announce(session.transport(), WorkerState.LEFT, currentClock.get(), finished);
        session.transport().flush();
        session.transport().failIfSendFailed();
    }

    /** One clock: wait for the model the sync mode requires, compute, publish gradient and telemetry. */
    private void iterate(final Session session, final long clock) {
        final JobContext job = session.job();
        final long waitStart = System.nanoTime();
        awaitModel(session.transport(), session.models(), session.view(), job.sync(), clock, firstClock.get());
        if (stopping.get()) {
            return;
        }
        final double waitMs = (System.nanoTime() - waitStart) / 1e6;
        final long pinnedVersion = job.sync().pinnedVersion(clock);
        final ModelView model =
                pinnedVersion < 0 ? session.view() : session.view().at(pinnedVersion);
        final float[] params = model.assembleInto(job.buffers().params());
        final long[] baseVersions = model.versions();
        final ClockWork work = session.compute().compute(clock, params, model);
        if (work == null) {
            return;
        }
        final IterationTelemetry telemetry = work.telemetry(job.spec(), settings.workerId(), clock, waitMs);
        final WorkerTransport transport = session.transport();
        transport.beginClock();
        session.gradients().publish(clock, baseVersions, work);
        // the telemetry rides in the gradients' request: one produce request a clock, sent now rather than
        // after the producer's linger
        transport.publishTelemetry(telemetry);
        if (work.online() == null) {
            transport.endClock(Map.of(), null);
        } else {
            for (final ClockInput.BadExample bad : work.online().bad()) {
                transport.setAside(
                        bad.key(), bad.letter(settings.workerId(), job.spec().getJob()));
            }
            // a topic-mode clock: its output and its input offsets in one transaction
            transport.endClock(work.online().offsets(), work.online().group());
        }
        currentClock.set(clock + 1);
        listener.onIteration(telemetry);
    }

    /** Announces this worker every quarter session timeout, also while it computes or waits. */
    private ScheduledExecutorService startHeartbeats(final WorkerTransport transport, final JobSpec spec) {
        final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            final Thread thread = new Thread(runnable, settings.workerId() + "-heartbeat");
            thread.setDaemon(true);
            return thread;
        });
        final long period = Math.max(50, spec.getSessionTimeoutMs() / 4);
        timer.scheduleAtFixedRate(
                () -> announce(transport, WorkerState.HEARTBEAT, currentClock.get()),
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

    /** A topic-mode job's input is over: stops, and leaves finished. */
    private void endOfInput() {
        inputOver.set(true);
        close();
    }

    /** The clock to start from: the model's minClock once the reader has caught up with {@code model}. */
    private long joinAt(
            final WorkerTransport transport, final ModelFeed models, final ModelView view, final SyncPolicy sync) {
        awaitModel(transport, models, view, sync, 0, 0);
        models.catchUp(settings.modelTimeout(), view::offer);
        return Math.max(0, view.minClock());
    }

    /**
     * Takes the model records already fetched (so that even a worker that need not wait computes on
     * the newest model it has), then polls {@code model} until every shard is present and the sync
     * policy lets this worker, which joined at {@code firstClock}, start {@code clock}
     * ({@link SyncPolicy#mayStart}); returns the minClock.
     */
    private long awaitModel(
            final WorkerTransport transport,
            final ModelFeed models,
            final ModelView view,
            final SyncPolicy sync,
            final long clock,
            final long firstClock) {
        long deadline = System.nanoTime() + settings.modelTimeout().toNanos();
        models.poll(Duration.ZERO, view::offer);
        while (!view.complete()
                || !sync.mayStart(clock, firstClock, view.minClock(), view.appliedClocks(settings.workerId()))) {
            if (stopping.get() || deleted(models)) {
                return view.minClock();
            }
            transport.failIfSendFailed();
            if (System.nanoTime() > deadline && patient) {
                // a topic-mode job waits for its examples: a worker whose partitions are idle holds the
                // barrier as long as it heartbeats; one that dies leaves it at the session timeout
                log.warn(
                        "{} has waited {} s more for the model of job {} to reach clock {}; shard versions seen: {}",
                        settings.workerId(),
                        settings.modelTimeout().toSeconds(),
                        settings.job(),
                        Math.max(0, sync.minClockToStart(clock)),
                        Arrays.toString(view.versions()));
                deadline += settings.modelTimeout().toNanos();
            } else if (System.nanoTime() > deadline) {
                throw new IllegalStateException(settings.workerId() + " waited "
                        + settings.modelTimeout().toSeconds()
                        + " s for the model of job " + settings.job() + " to reach clock "
                        + Math.max(0, sync.minClockToStart(clock)) + " (to start clock " + clock
                        + "); shard versions seen: " + Arrays.toString(view.versions())
                        + ". Is the aggregator running and are all " + settings.workers() + " workers up?");
            }
            models.poll(MODEL_POLL, view::offer);
        }
        return view.minClock();
    }

    /**
     * Whether the job was deleted, by the tombstones {@code models} has read; if so the worker stops after the current
     * clock and leaves.
     */
    private boolean deleted(final ModelFeed models) {
        if (models.deleted(settings.job()) && !stopping.getAndSet(true)) {
            log.info("{}: job {} was deleted; it leaves", settings.workerId(), settings.job());
        }
        return stopping.get();
    }

    /** Whether to stop waiting for examples: the worker is stopping, or {@code models}' newest records delete the job. */
    private boolean deletedWhileWaiting(final ModelFeed models, final ModelView view) {
        if (stopping.get()) {
            return true;
        }
        models.poll(Duration.ZERO, view::offer);
        return deleted(models);
    }

    private void announce(final WorkerTransport transport, final WorkerState state, final long clock) {
        announce(transport, state, clock, false);
    }

    /** A membership record; {@code finished}: a LEFT because the job is over for this worker, not a stop. */
    private void announce(
            final WorkerTransport transport, final WorkerState state, final long clock, final boolean finished) {
        transport.announce(WorkerStatus.newBuilder()
                .setJob(settings.job())
                .setWorker(settings.workerId())
                .setState(state)
                .setClock(clock)
                .setFinished(finished)
                .setTimestamp(Instant.now())
                .build());
    }
}
