package io.paramhub.embedded;

import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.secure.Role;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.TrainTest;
import io.paramhub.orchestrator.OrchestratorEndpoint;
import io.paramhub.orchestrator.OrchestratorRunner;
import io.paramhub.orchestrator.dashboard.TestSets;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.TopicRetentions;
import io.paramhub.topology.aggregator.AggregatorInstance;
import io.paramhub.topology.aggregator.AggregatorMetrics;
import io.paramhub.topology.client.JobSubmitter;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.orchestrator.OrchestratorMetrics;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import io.paramhub.topology.placement.PlacementSettings;
import io.paramhub.worker.ComputeEmulation;
import io.paramhub.worker.Worker;
import io.paramhub.worker.WorkerClients;
import io.paramhub.worker.WorkerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One training job end to end on a cluster: submits the job, runs an aggregator and N workers in
 * this JVM (and the orchestrator, with its dashboard, when asked), and evaluates the model published on
 * {@code model} at the end of every epoch, as any service consuming {@code model} could.
 */
public final class TrainingRun {

    private static final Logger log = LoggerFactory.getLogger(TrainingRun.class);
    private static final int NO_DASHBOARD = -1;
    private static final String OBSERVER_APPLICATION_ID = "paramhub-orchestrator-observer";

    /** The job a run trains, with its length in iterations (clocks), known once the data is loaded. */
    public record Job(JobSpec spec, long iterationsPerEpoch, long iterations) {}

    /**
     * What a run did. {@code aggregatorCommits}: the commits of the aggregators this run started (Kafka
     * Streams' {@code commit-total}, see {@link StreamsCounters}), from their start to the end of training;
     * 0 with {@link #withAggregators} 0. {@code aggregatorRebalances}: the rebalances those aggregators went
     * through after start-up (every instance holding tasks) to the end of training ({@link StreamsCounters},
     * summed over the instances: one rebalance of the group counts once per instance).
     */
    public record Result(
            Job job,
            List<EpochResult> epochs,
            float[] finalParameters,
            double wallSeconds,
            long deadLetters,
            double stalenessMax,
            double stalenessP99,
            long aggregatorCommits,
            long aggregatorRebalances) {

        public EpochResult last() {
            return epochs.get(epochs.size() - 1);
        }
    }

    private final KafkaConnection connection;
    private final String topicPrefix;
    private final Path stateDir;
    private int aggregators = 1;
    private Duration workerRestartDelay;
    private Map<Integer, ComputeEmulation> emulations = Map.of();
    private int workerThreads = 1;
    private boolean hostSum = true;
    private OrchestratorSettings orchestrator;
    private int dashboardPort = NO_DASHBOARD;
    private TopicSetup topicSetup = TopicSetup.defaults();
    private ServerEmulation servers = ServerEmulation.NONE;
    private PlacementSettings placement;
    private FirstPlacement firstPlacement = FirstPlacement.NONE;
    private Map<Role, KafkaConnection> roles = Map.of();
    /** Names this run's aggregator instances apart from those of earlier runs on the same cluster. */
    private final String instanceTag =
            Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));

    public TrainingRun(
            final String bootstrapServers, final String registryUrl, final String topicPrefix, final Path stateDir) {
        this(KafkaConnection.plain(bootstrapServers, registryUrl), topicPrefix, stateDir);
    }

    /** A run whose clients, Streams apps and serdes connect with {@code connection}'s settings. */
    public TrainingRun(final KafkaConnection connection, final String topicPrefix, final Path stateDir) {
        this.connection = connection;
        this.topicPrefix = topicPrefix;
        this.stateDir = stateDir;
    }

    /** A copy of {@code run}'s settings, for the {@code with...} methods to change one of. */
    private TrainingRun(final TrainingRun run) {
        this.connection = run.connection;
        this.topicPrefix = run.topicPrefix;
        this.stateDir = run.stateDir;
        this.aggregators = run.aggregators;
        this.workerRestartDelay = run.workerRestartDelay;
        this.emulations = run.emulations;
        this.workerThreads = run.workerThreads;
        this.hostSum = run.hostSum;
        this.orchestrator = run.orchestrator;
        this.dashboardPort = run.dashboardPort;
        this.topicSetup = run.topicSetup;
        this.servers = run.servers;
        this.placement = run.placement;
        this.firstPlacement = run.firstPlacement;
        this.roles = run.roles;
    }

    /** A new run with this one's settings, {@code change}d: a run's settings never change once made. */
    private TrainingRun copy(final Consumer<TrainingRun> change) {
        final TrainingRun run = new TrainingRun(this);
        change.accept(run);
        return run;
    }

    /** The same run with {@code count} aggregator instances in this JVM; 0 when one runs elsewhere. */
    public TrainingRun withAggregators(final int count) {
        return copy(run -> run.aggregators = count);
    }

    /** The same run, restarting a worker that fails after {@code delay} (it rejoins at the current model). */
    public TrainingRun restartingFailedWorkersAfter(final Duration delay) {
        return copy(run -> run.workerRestartDelay = delay);
    }

    /** The same run with emulated compute cost or slowdown for the workers of the given indices. */
    public TrainingRun withEmulation(final Map<Integer, ComputeEmulation> byWorker) {
        return copy(run -> run.emulations = Map.copyOf(byWorker));
    }

    /** The same run creating topics, and replicating the Streams apps' internal ones, as {@code setup} says. */
    public TrainingRun withTopicSetup(final TopicSetup setup) {
        return copy(run -> run.topicSetup = setup);
    }

    /** The same run with {@code count} compute threads on every worker. */
    public TrainingRun withWorkerThreads(final int count) {
        return copy(run -> run.workerThreads = count);
    }

    /**
     * The same run with its workers each sending their own gradients, rather than (the default, when the job suits
     * it) one host's sum a clock for all of them ({@code WorkerClients#sumOnHost}).
     */
    public TrainingRun withoutHostSum() {
        return copy(run -> run.hostSum = false);
    }

    /** The same run with an orchestrator in this JVM, planning with {@code settings}. */
    public TrainingRun withOrchestrator(final OrchestratorSettings settings) {
        return copy(run -> run.orchestrator = settings);
    }

    /**
     * The same run serving the orchestrator's live dashboard on 127.0.0.1:{@code port} (0 = any free port)
     * while it trains; without {@link #withOrchestrator}, an observe-only orchestrator runs to serve it
     * (it flags stragglers and issues no command, so training is the same as without it).
     */
    public TrainingRun withDashboard(final int port) {
        return copy(run -> run.dashboardPort = port);
    }

    /** The same run with its aggregator instances emulated as {@code emulation} says. */
    public TrainingRun withServerEmulation(final ServerEmulation emulation) {
        return copy(run -> run.servers = emulation);
    }

    /**
     * The same run with its aggregator instances following the orchestrator's placement of shards, which
     * the orchestrator (see {@link #withOrchestrator}) decides with {@code settings}.
     */
    public TrainingRun withPlacement(final PlacementSettings settings) {
        return copy(run -> run.placement = settings);
    }

    /**
     * The same run starting from {@code first} (its aggregators follow placements, version 0 being this one),
     * rather than from Kafka Streams' first assignment.
     */
    public TrainingRun withFirstPlacement(final FirstPlacement first) {
        return copy(run -> run.firstPlacement = first);
    }

    /**
     * The same run with each app connecting as its {@link Role}'s principal: aggregators, orchestrator (and a first
     * placement), submission and evaluation (SUBMITTER), workers; a role not in {@code byRole} uses the run's.
     */
    public TrainingRun withRoles(final Map<Role, KafkaConnection> byRole) {
        return copy(run -> run.roles = Map.copyOf(byRole));
    }

    /** The ids of this run's first {@code count} aggregator instances. */
    public List<String> aggregatorIds(final int count) {
        final List<String> ids = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            ids.add(aggregatorId(index));
        }
        return ids;
    }

    /** The id of this run's aggregator instance {@code index}, as in {@code server-telemetry} and {@code placements}. */
    public String aggregatorId(final int index) {
        return "aggregator-" + index + "-" + instanceTag;
    }

    public Result run(final JobSpec spec, final TrainTest data, final RunListener listener)
            throws InterruptedException {
        JobSpecs.requireValid(spec);
        final long iterationsPerEpoch =
                new BatchPlan(data.train().size(), spec.getGlobalBatch(), spec.getSeed()).iterationsPerEpoch();
        final Job job = new Job(spec, iterationsPerEpoch, iterationsPerEpoch * spec.getEpochs());
        final Properties submitter = as(Role.SUBMITTER).client();
        final long started = System.nanoTime();

        final AggregatorMetrics metrics = AggregatorMetrics.unregistered();
        final List<AggregatorRunner> runners = startAggregators(metrics);
        final long rebalancesAtStart = rebalances(runners);
        final OrchestratorRunner planner =
                orchestrator == null && dashboardPort == NO_DASHBOARD ? null : startOrchestrator();
        OrchestratorEndpoint http = null;
        try {
            if (dashboardPort != NO_DASHBOARD) {
                // the orchestrator's own endpoint, as in its app: /dashboard, /jobs/{job}/events, /jobs/{job}/workers
                http = OrchestratorEndpoint.start(
                        planner,
                        "127.0.0.1",
                        dashboardPort,
                        null,
                        TestSets.loading().with(spec.getDataset(), data.test()));
                listener.onDashboard("http://127.0.0.1:" + http.port() + "/dashboard");
            }
            JobSubmitter.submit(topics().jobs(), submitter, spec);
            listener.onStarted(job);
            final LossTally losses = new LossTally(iterationsPerEpoch, spec.getStages());
            final ExecutorService threads = Executors.newFixedThreadPool(spec.getExpectedWorkers() + 1);
            final AtomicBoolean stop = new AtomicBoolean();
            final EpochEvaluator evaluator = new EpochEvaluator(topics(), submitter);
            // the workers of this process share one producer and one reader of the model, and add up their
            // gradients here to send one record a shard a clock, exactly (HostSum)
            final WorkerClients workerClients =
                    new WorkerClients(topics(), as(Role.WORKER).client());
            if (hostSum) {
                workerClients.sumOnHost(spec.getJob(), spec.getExpectedWorkers());
            }
            try {
                final Future<EpochEvaluator.Evaluated> evaluation = threads.submit(() -> {
                    try {
                        return evaluator.evaluate(job, data, losses, listener, started, stop);
                    } catch (final RuntimeException | Error e) {
                        // otherwise nobody hears of it until every worker has finished
                        log.error("evaluating job {} failed", spec.getJob(), e);
                        throw e;
                    }
                });
                final List<Future<?>> workers = new ArrayList<>();
                for (int index = 0; index < spec.getExpectedWorkers(); index++) {
                    final WorkerSettings settings = WorkerSettings.of(spec.getJob(), index, spec.getExpectedWorkers())
                            .withEmulation(emulations.getOrDefault(index, ComputeEmulation.NONE))
                            .withThreads(workerThreads);
                    workers.add(threads.submit(() -> superviseWorker(settings, workerClients, data, losses, listener)));
                }
                for (final Future<?> worker : workers) {
                    worker.get();
                }
                final EpochEvaluator.Evaluated evaluated = evaluation.get();
                final double wallSeconds = (System.nanoTime() - started) / 1e9;
                final long commits = runners.stream()
                        .mapToLong(runner -> StreamsCounters.commits(runner.streams()))
                        .sum();
                return new Result(
                        job,
                        evaluated.epochs(),
                        evaluated.finalParameters(),
                        wallSeconds,
                        evaluator.countDeadLetters(),
                        metrics.maxStaleness(),
                        metrics.p99Staleness(),
                        commits,
                        rebalances(runners) - rebalancesAtStart);
            } catch (final ExecutionException e) {
                throw new IllegalStateException(
                        "training job " + spec.getJob() + " failed: "
                                + e.getCause().getMessage(),
                        e.getCause());
            } finally {
                stop.set(true);
                threads.shutdownNow();
                threads.awaitTermination(30, TimeUnit.SECONDS);
                workerClients.close();
            }
        } finally {
            if (http != null) {
                http.close();
            }
            if (planner != null) {
                planner.close();
            }
            runners.forEach(AggregatorRunner::close);
        }
    }

    /** Creates the topics the aggregators would create in {@link #run}, as a deployment does before its first job. */
    public void provisionTopics() {
        final KafkaConnection aggregator = as(Role.AGGREGATOR);
        try (Admin admin = Admin.create(aggregator.client())) {
            topicSetup.provision(admin, topics(), TopicRetentions.from(aggregator.streams()));
        }
    }

    private OrchestratorRunner startOrchestrator() {
        final Properties props = as(Role.ORCHESTRATOR).streams();
        props.put(
                StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve("orchestrator").toString());
        if (orchestrator == null) {
            // there only for the dashboard: never in the group of a planning orchestrator on the same cluster
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, OBSERVER_APPLICATION_ID);
        }
        final OrchestratorSettings settings = orchestrator != null
                ? orchestrator
                : OrchestratorSettings.defaults().observeOnly();
        final PlacementSettings placing = placement != null && orchestrator != null
                ? placement
                : PlacementSettings.defaults().observeOnly();
        return OrchestratorRunner.start(
                props, topicPrefix, topicSetup, settings, placing, OrchestratorMetrics.unregistered());
    }

    private List<AggregatorRunner> startAggregators(final AggregatorMetrics metrics) throws InterruptedException {
        final List<AggregatorRunner> runners = new ArrayList<>();
        if (aggregators == 0) {
            provisionTopics();
        }
        for (int instance = 0; instance < aggregators; instance++) {
            final Properties props = as(Role.AGGREGATOR).streams();
            props.put(
                    StreamsConfig.STATE_DIR_CONFIG,
                    stateDir.resolve("aggregator-" + instance).toString());
            props.put(AggregatorInstance.INSTANCE_ID_CONFIG, aggregatorId(instance));
            if (servers.roundCostMicros() > 0 || servers.slowdownOf(instance) > 1) {
                props.put(AggregatorInstance.ROUND_COST_CONFIG, Long.toString(servers.roundCostMicros()));
                props.put(AggregatorInstance.SLOWDOWN_CONFIG, Double.toString(servers.slowdownOf(instance)));
            }
            if (placement != null && orchestrator != null || firstPlacement.given()) {
                props.put(AggregatorRunner.FOLLOW_PLACEMENT_CONFIG, "true");
            }
            runners.add(AggregatorRunner.start(props, topicPrefix, topicSetup, metrics));
        }
        if (firstPlacement.given()) {
            firstPlacement.publish(topics().placements(), as(Role.ORCHESTRATOR).client(), aggregatorIds(aggregators));
            firstPlacement.await(runners, Duration.ofSeconds(60));
        } else if (runners.size() > 1) {
            awaitEveryInstanceHoldingTasks(runners);
        }
        return runners;
    }

    private static long rebalances(final List<AggregatorRunner> runners) {
        return runners.stream()
                .mapToLong(runner -> StreamsCounters.rebalances(runner.streams()))
                .sum();
    }

    /**
     * Waits (up to 60 s) until every aggregator instance is running with tasks of its own, so that shards are
     * spread over the instances before the job starts rather than moved, with their state, once it runs.
     */
    private static void awaitEveryInstanceHoldingTasks(final List<AggregatorRunner> runners) {
        final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            final boolean spread = runners.stream()
                    .allMatch(runner -> runner.streams().state() == KafkaStreams.State.RUNNING
                            && runner.streams().metadataForLocalThreads().stream()
                                    .anyMatch(thread -> !thread.activeTasks().isEmpty()));
            if (spread) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        log.warn("not every aggregator instance holds tasks after 60 s; starting the job anyway");
    }

    /** Runs one worker to the end; if it fails and restarts are on, starts it again after the delay. */
    private Void superviseWorker(
            final WorkerSettings settings,
            final WorkerClients clients,
            final TrainTest data,
            final LossTally losses,
            final RunListener listener)
            throws InterruptedException {
        while (true) {
            final Worker worker = new Worker(settings, clients, ignored -> data, telemetry -> {
                losses.add(telemetry);
                listener.onIteration(telemetry);
            });
            try {
                worker.run();
                return null;
            } catch (final RuntimeException e) {
                if (workerRestartDelay == null) {
                    throw e;
                }
                log.warn(
                        "{} failed ({}); restarting it in {} ms",
                        settings.workerId(),
                        e.getMessage(),
                        workerRestartDelay.toMillis());
                Thread.sleep(workerRestartDelay.toMillis());
            }
        }
    }

    private TopicCatalog topics() {
        return connection.topics(topicPrefix);
    }

    /** The connection of {@code role}'s principal: the run's unless {@link #withRoles} gave one. */
    private KafkaConnection as(final Role role) {
        return roles.getOrDefault(role, connection);
    }
}
