package io.paramhub.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.SyncMode;
import io.paramhub.embedded.ConnectionOptions;
import io.paramhub.embedded.Directories;
import io.paramhub.embedded.LocalCluster;
import io.paramhub.embedded.ProgressPrinter;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.ServerEmulation;
import io.paramhub.embedded.ServerEmulationOptions;
import io.paramhub.embedded.ServerReport;
import io.paramhub.embedded.ServerRounds;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.embedded.WorkerTally;
import io.paramhub.launcher.JobSpecOptions;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.ml.ShardSizing;
import io.paramhub.ml.TrainTest;
import io.paramhub.topology.client.SchemaRegistration;
import io.paramhub.topology.jobs.JobData;
import io.paramhub.topology.jobs.JobRecipe;
import io.paramhub.topology.jobs.JobSettings;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import io.paramhub.topology.placement.PlacementSettings;
import io.paramhub.worker.ComputeEmulation;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code paramhub demo}: trains one job through Kafka, on an embedded broker and registry unless told otherwise. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Trains a model with N workers and an aggregator through Kafka and prints test accuracy "
                + "(or RMSE) after every epoch. Without --bootstrap-servers it starts a Kafka broker (KRaft) and a "
                + "schema registry inside this JVM.")
final class DemoCommand implements Callable<Integer> {

    @Spec
    private CommandSpec command;

    @Option(
            names = "--workers",
            defaultValue = "4",
            description = "Workers sharing each batch (default: ${DEFAULT-VALUE}).")
    private int workers;

    @Mixin
    private JobSpecOptions jobSpec;

    @Option(
            names = "--stages",
            defaultValue = "1",
            description = "Pipeline stages per data-parallel replica (hybrid data and model parallel, BSP only): "
                    + "--workers must be a multiple; worker w computes stage w %% S of replica w / S and holds only "
                    + "that stage's parameters; activations travel on their own topics. mlp is cut between layers, "
                    + "cnn through its dense hidden layer (docs/models.md) (default: ${DEFAULT-VALUE}, every worker "
                    + "computes the whole model).")
    private int stages;

    @Option(
            names = "--micro-batches",
            defaultValue = "2",
            description = "With --stages > 1: at most how many micro-batches a replica cuts its share of each batch "
                    + "into, pipelined through the stages; each a whole number of the model's blocks (32 samples for mlp "
                    + "and cnn), so that the gradients are the data-parallel ones (bit for bit for mlp, to float "
                    + "rounding for cnn) (default: ${DEFAULT-VALUE}).")
    private int microBatches;

    @Option(
            names = "--model",
            defaultValue = "softmax",
            description =
                    "softmax, mlp (784-256-128-10, ReLU), cnn (2 x conv 3x3 padded + max pool, 32 and 64 channels, "
                            + "dense 128 with dropout 0.5) on Fashion-MNIST, or linear (generated regression); "
                            + "mlp:H1,H2,..[,dropout=R] and "
                            + "cnn:K,C1,C2,H[,PAD][,dropout=R][,flip] choose other layers (default: ${DEFAULT-VALUE}).")
    private String model;

    @Option(
            names = "--dataset",
            description = "Data set: fashion-mnist[:DIR], linear[:n=..,d=..], csv:FILE[,..], idx:IMAGES,LABELS[,..], "
                    + "avro:FILE,features=..[,..] (docs/data.md); default: linear for linear, fashion-mnist otherwise.")
    private String dataset;

    @Option(
            names = "--optimizer",
            description = "sgd or adam (default: sgd for softmax and linear, adam for mlp " + "and cnn).")
    private String optimizer;

    @Option(
            names = "--lr-schedule",
            description =
                    "constant, or cosine: the rate falls from --lr to 0 over the "
                            + "job's iterations along half a cosine (default: cosine for mlp and cnn, constant for the others).")
    private String schedule;

    @Option(
            names = "--sync",
            defaultValue = "bsp",
            description = "bsp, ssp (bounded staleness, see --staleness) or asp (default: ${DEFAULT-VALUE}).")
    private String sync;

    @Option(
            names = "--max-staleness",
            defaultValue = "" + JobRecipe.DEFAULT_MAX_STALENESS,
            description = "Server-side bound in model versions; staler gradients go to dead-letters as STALE. "
                    + "-1: 0 for bsp, (2s+2) x workers for ssp, none for asp (default: ${DEFAULT-VALUE}).")
    private long maxStaleness;

    @Option(
            names = "--session-timeout-ms",
            defaultValue = "" + JobRecipe.DEFAULT_SESSION_TIMEOUT_MS,
            description = "A worker silent this long leaves the live set (default: ${DEFAULT-VALUE}).")
    private long sessionTimeoutMs;

    @Option(
            names = "--gradient-encoding",
            defaultValue = "float32",
            description = "How workers ship gradients: float32 (exact) or bfloat16 (half the bytes, rounded with "
                    + "error feedback; the model is no longer bit-identical to the in-process run) "
                    + "(default: ${DEFAULT-VALUE}).")
    private String gradientEncoding;

    @Option(
            names = "--pipeline-depth",
            defaultValue = "0",
            description = "BSP only: compute clock c on model version c - D, so that the next clock's compute overlaps "
                    + "this one's round trip; deterministic, but a different model from plain BSP's (default: "
                    + "${DEFAULT-VALUE}, plain BSP; at most " + JobSpecs.MAX_PIPELINE_DEPTH + ").")
    private int pipelineDepth;

    @Option(
            names = "--policy",
            defaultValue = "none",
            description =
                    "paramhub: run the orchestrator, which gives stragglers smaller batch shares (under bsp) and, "
                            + "with several --aggregators, moves shards off slow aggregator instances; "
                            + "none: equal shares, no orchestrator (an observe-only one with --dashboard) (default: ${DEFAULT-VALUE}).")
    private String policy;

    @Option(
            names = "--threads",
            defaultValue = "1",
            description = "Compute threads of each worker (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Mixin
    private ComputeEmulationOptions computeEmulation;

    @Mixin
    private ServerEmulationOptions servers;

    @Option(
            names = "--thread-budget",
            defaultValue = "0",
            description = "With --policy paramhub: compute threads the job's workers may use together; the "
                    + "orchestrator gives stragglers threads from what is free of it, else from the fastest workers; "
                    + "0 = no spare threads (default: ${DEFAULT-VALUE}).")
    private int threadBudget;

    @Option(
            names = "--max-threads",
            defaultValue = "8",
            description = "With --policy paramhub: most compute threads the orchestrator gives one worker "
                    + "(default: ${DEFAULT-VALUE}).")
    private int maxThreads;

    @Option(
            names = "--dashboard",
            description =
                    "Serve the orchestrator's live dashboard on 127.0.0.1 while training and print its address; "
                            + "with --policy none the orchestrator runs observe-only: it flags stragglers and issues no command.")
    private boolean dashboard;

    @Option(
            names = "--dashboard-port",
            defaultValue = "0",
            description = "With --dashboard: its port; 0 = any free port (default: ${DEFAULT-VALUE}).")
    private int dashboardPort;

    @Option(names = "--job", description = "Job name (default: demo-<time>).")
    private String job;

    @Option(names = "--report", description = "Write a JSON report to this file.")
    private Path report;

    @Mixin
    private ConnectionOptions connectionOptions;

    @Mixin
    private OnlineOptions online;

    @Option(
            names = "--aggregators",
            defaultValue = "1",
            description = "Aggregator instances to run in this JVM; 0 = use the aggregators already running on the "
                    + "cluster given by --bootstrap-servers (default: ${DEFAULT-VALUE}).")
    private int aggregators;

    @Override
    public Integer call() throws Exception {
        final SyncMode syncMode = parseSync();
        checkOptions();
        final boolean orchestrated = "paramhub".equals(policy);
        final Map<Integer, ComputeEmulation> emulations = computeEmulation.byWorker(workers);
        final ServerEmulation serverEmulation;
        try {
            serverEmulation = servers.emulation(aggregators);
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
        final OrchestratorSettings orchestration = orchestratorSettings();
        final PrintStream out = System.out;
        final DemoData demo = DemoData.load(dataset, model, out);
        final TrainTest data = demo.data();
        final JobSpec spec = demo.requireValid(jobSpec(demo.spec(), data, syncMode));
        final Path stateDir = Files.createTempDirectory("paramhub-streams-");
        try (DemoData.Allowance allowed = demo.allowFiles();
                LocalCluster cluster = LocalCluster.startOrConnect(connectionOptions.settings())) {
            out.println(cluster.describe());
            // as a deployment does once, before its first job: the run's clients then find the ids in this JVM
            SchemaRegistration.registerValueSchemas(
                    cluster.connection().topics(connectionOptions.topicPrefix()),
                    cluster.connection().serdes());
            if (online.enabled()) {
                new OnlineDemo(
                                online,
                                out,
                                command.commandLine().getParseResult().hasMatchedOption("--batch"))
                        .run(spec, data, demo.spec(), cluster, connectionOptions, stateDir, threads, report);
                return 0;
            }
            final WorkerTally tally = new WorkerTally();
            final TrainingRun configured = new TrainingRun(
                            cluster.connection(), connectionOptions.topicPrefix(), stateDir)
                    .withAggregators(aggregators)
                    .withEmulation(emulations)
                    .withServerEmulation(serverEmulation)
                    .withWorkerThreads(threads)
                    .withOrchestrator(orchestrated ? orchestration : null);
            // the orchestrator also places shards on the aggregator instances when there are several
            final TrainingRun run = orchestrated && aggregators > 1
                    ? configured.withPlacement(PlacementSettings.defaults())
                    : configured;
            final TrainingRun.Result result = (dashboard ? run.withDashboard(dashboardPort) : run)
                    .run(spec, data, RunListener.both(new ProgressPrinter(out, System.console() != null), tally));
            RunSummary.print(out, result, tally, emulations, computeEmulation.sampleCostMicros());
            final ServerRounds rounds = aggregators > 1
                    ? ServerRounds.read(
                            cluster.connection().topics(connectionOptions.topicPrefix()),
                            cluster.connection().client(),
                            spec.getJob(),
                            run.aggregatorIds(aggregators))
                    : null;
            if (rounds != null) {
                ServerReport.print(out, rounds);
            }
            if (report != null) {
                final ObjectNode json = RunReport.toJson(result, tally, emulations);
                if (rounds != null) {
                    ServerReport.addTo(json, rounds, serverEmulation, run.aggregatorIds(aggregators));
                }
                demo.addTo(json);
                RunReport.write(report, json);
                out.println("report written to " + report);
            }
        } finally {
            Directories.deleteRecursively(stateDir);
        }
        return 0;
    }

    /** Refuses options that do not go together, as usage errors. */
    private void checkOptions() {
        if (!"paramhub".equals(policy) && !"none".equals(policy)) {
            throw new ParameterException(command.commandLine(), "--policy must be paramhub or none, not " + policy);
        }
        if (aggregators < 0 || aggregators == 0 && connectionOptions.bootstrapServers() == null) {
            throw new ParameterException(
                    command.commandLine(),
                    "--aggregators must be >= 1, or 0 together with "
                            + "--bootstrap-servers of a cluster where aggregators already run");
        }
        if (dashboardPort != 0 && !dashboard || dashboardPort < 0 || dashboardPort > 65_535) {
            throw new ParameterException(
                    command.commandLine(),
                    "--dashboard-port must be a port (0 = any free one) " + "given with --dashboard, not "
                            + dashboardPort);
        }
        if (online.problem() != null) {
            throw new ParameterException(command.commandLine(), online.problem());
        }
        if (stages < 1 || microBatches < 1) {
            throw new ParameterException(
                    command.commandLine(),
                    "--stages and --micro-batches must be >= 1, not " + stages + " and " + microBatches);
        }
    }

    /** {@code --epochs}, or its default. */
    private int epochs() {
        return jobSpec.epochs() != null ? jobSpec.epochs() : JobRecipe.DEFAULT_EPOCHS;
    }

    /** The orchestrator's defaults with {@code --thread-budget} and {@code --max-threads}. */
    private OrchestratorSettings orchestratorSettings() {
        try {
            return OrchestratorSettings.defaults()
                    .withThreadBudget(threadBudget)
                    .withMaxThreadsPerWorker(maxThreads);
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(
                    command.commandLine(),
                    "--thread-budget must be >= 0 and --max-threads " + ">= 1: " + e.getMessage());
        }
    }

    private SyncMode parseSync() {
        try {
            return SyncMode.valueOf(sync.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), "--sync must be bsp, ssp or asp, not " + sync);
        }
    }

    /**
     * The job these options describe, through the one job recipe: what the user chose, and the demo's own choice of
     * shards where they chose none (one per aggregator; as many as partitions with a slow aggregator, fine-grained
     * enough to move load off it).
     */
    private JobSpec jobSpec(final String datasetSpec, final TrainTest data, final SyncMode syncMode) {
        final int defaultShards = servers.slowed() ? TopicSetup.DEFAULT_SHARD_PARTITIONS : Math.max(1, aggregators);
        final JobSettings settings;
        final JobSpec spec;
        try {
            settings = jobSpec.settings()
                    .job(job != null ? job : "demo-" + System.currentTimeMillis())
                    .model(model)
                    .workers(workers)
                    .epochs(epochs())
                    .shards(jobSpec.shards() != null ? jobSpec.shards() : defaultShards)
                    .optimizer(JobSettings.optimizer(optimizer))
                    .schedule(JobSettings.schedule(schedule))
                    .sync(syncMode)
                    .maxStaleness(maxStaleness)
                    .sessionTimeoutMs(sessionTimeoutMs)
                    .encoding(JobSettings.encoding(gradientEncoding))
                    .pipelineDepth(pipelineDepth)
                    .stages(stages)
                    .microBatches(microBatches);
            spec = JobRecipe.spec(settings, JobData.ofFile(datasetSpec, data.train()));
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
        final int requested = JobRecipe.requestedShards(settings);
        if (spec.getShards() > requested && stages == 1) {
            System.out.printf(
                    Locale.ROOT,
                    "%s has %d parameters (%.1f MiB): %d shards instead of %d, so that each carries at most %d KiB%n",
                    spec.getModel(),
                    spec.getParameters(),
                    spec.getParameters() * 4.0 / (1024 * 1024),
                    spec.getShards(),
                    requested,
                    ShardSizing.RECORD_BUDGET_BYTES / 1024);
        }
        return spec;
    }
}
