package io.paramhub.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.SyncMode;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.ServerReport;
import io.paramhub.embedded.ServerRounds;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.ml.Model;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.jobs.JobData;
import io.paramhub.topology.jobs.JobRecipe;
import io.paramhub.topology.jobs.JobSettings;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import io.paramhub.topology.placement.PlacementSettings;
import io.paramhub.worker.ComputeEmulation;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Runs one policy of a bench on a cluster: submits its job, runs the aggregator, the workers (with the
 * scenario's emulation) and for {@code paramhub} the orchestrator in this JVM, while it records every
 * worker iteration and samples the test metric from {@code model}; then computes the policy's figures.
 * Writes {@code jobs}, {@code gradients}, {@code telemetry}, {@code membership} (and {@code commands});
 * reads {@code model}.
 */
final class PolicyRunner {

    /** How often, at most, the newest model is scored while a policy trains. */
    static final Duration METRIC_INTERVAL = Duration.ofMillis(50);
    /** Windows of the iteration-time series. */
    static final int WINDOWS = 20;

    private final KafkaConnection connection;
    private final String topicPrefix;
    private final Path stateDir;
    private final PrintStream out;
    private final boolean terminal;

    PolicyRunner(
            final KafkaConnection connection,
            final String topicPrefix,
            final Path stateDir,
            final PrintStream out,
            final boolean terminal) {
        this.connection = connection;
        this.topicPrefix = topicPrefix;
        this.stateDir = stateDir;
        this.out = out;
        this.terminal = terminal;
    }

    PolicyRun run(final BenchSettings settings, final Policy policy, final String job) throws InterruptedException {
        final JobSpec spec = jobSpec(settings, policy, job, settings.epochs());
        final TelemetryLog log = new TelemetryLog();
        final Properties client = connection.client();
        final TopicCatalog topics = connection.topics(topicPrefix);
        final long started = System.nanoTime();
        final TrainingRun.Result result;
        final BenchProgress progress;
        try (MetricSampler sampler = new MetricSampler(topics, client, settings.task(), METRIC_INTERVAL)) {
            progress = new BenchProgress(
                    out,
                    terminal,
                    policy.label(),
                    settings.clocks() * settings.workers(),
                    settings.task().metric(),
                    sampler::samples);
            final RunListener startSampler = new RunListener() {
                @Override
                public void onStarted(final TrainingRun.Job job) {
                    sampler.start(job.spec());
                }
            };
            final TrainingRun training = training(settings, policy, settings.emulations(), policy.label());
            result = training.run(
                    spec, settings.task().data(), RunListener.both(startSampler, RunListener.both(log, progress)));
            sampler.close();
            progress.finish();
            final Model model = settings.task().newModel();
            final double finalMetric = settings.task().evaluate(model, result.finalParameters());
            final PolicyOutcome outcome = PolicyMeasures.compute(
                    job,
                    log.iterations(),
                    sampler.samples(),
                    settings.task(),
                    settings.target(),
                    finalMetric,
                    settings.idealSeconds(),
                    WINDOWS);
            ObjectNode servers = null;
            if (settings.aggregators() > 1) {
                final List<String> instances = training.aggregatorIds(settings.aggregators());
                final ServerRounds rounds = ServerRounds.read(topics, client, job, instances);
                ServerReport.print(out, rounds, instances);
                servers = ServerReport.toJson(rounds, settings.servers(), instances, result.aggregatorRebalances());
            }
            return new PolicyRun(
                    policy,
                    spec.getStaleness(),
                    outcome,
                    log.iterations(),
                    (System.nanoTime() - started) / 1e9,
                    servers);
        }
    }

    /** One untimed epoch of BSP without emulation, so that no policy pays for a cold JVM and fresh topics. */
    void warmUp(final BenchSettings settings, final String job) throws InterruptedException {
        training(settings, Policy.BSP, Map.of(), "warm-up")
                .run(jobSpec(settings, Policy.BSP, job, 1), settings.task().data(), RunListener.NONE);
    }

    private TrainingRun training(
            final BenchSettings settings,
            final Policy policy,
            final Map<Integer, ComputeEmulation> emulations,
            final String dir) {
        final TrainingRun run = new TrainingRun(connection, topicPrefix, stateDir.resolve(dir))
                .withAggregators(settings.aggregators())
                .withServerEmulation(settings.servers())
                .withEmulation(emulations)
                .withOrchestrator(policy.orchestrated() ? OrchestratorSettings.defaults() : null);
        // an orchestrating policy also places shards on the aggregator instances when there are several
        return policy.orchestrated() && settings.aggregators() > 1
                ? run.withPlacement(PlacementSettings.defaults())
                : run;
    }

    /** The job of one policy's run, through the one job recipe: the task's model, optimizer and schedule. */
    static JobSpec jobSpec(final BenchSettings settings, final Policy policy, final String job, final int epochs) {
        final Model model = settings.task().newModel();
        final boolean synchronous = policy.sync() == SyncMode.BSP;
        final JobSettings chosen = JobSettings.none()
                .job(job)
                .model(model.kind())
                .workers(settings.workers())
                .epochs(epochs)
                .batch(settings.batch())
                .shards(settings.shards())
                .sync(policy.sync())
                .staleness(settings.staleness())
                .optimizer(settings.task().optimizer())
                .schedule(settings.task().schedule())
                .learningRate(settings.learningRate())
                .momentum(synchronous ? settings.momentum() : settings.asyncMomentum())
                .seed(settings.seed());
        return JobRecipe.spec(
                chosen,
                new JobData(
                        settings.task().dataSpec(),
                        model.inputs(),
                        model.outputs(),
                        settings.task().data().train().size(),
                        false));
    }
}
