package io.paramhub.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.ConnectionOptions;
import io.paramhub.embedded.Directories;
import io.paramhub.embedded.FirstPlacement;
import io.paramhub.embedded.LocalCluster;
import io.paramhub.embedded.ProgressPrinter;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.ServerEmulation;
import io.paramhub.embedded.ServerEmulationOptions;
import io.paramhub.embedded.ServerReport;
import io.paramhub.embedded.ServerRounds;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.embedded.WorkerTally;
import io.paramhub.launcher.JobRecipeOptions;
import io.paramhub.launcher.JobSpecOptions;
import io.paramhub.launcher.RocksDbLibrary;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.ml.ShardSizing;
import io.paramhub.ml.TrainTest;
import io.paramhub.topology.client.SchemaRegistration;
import io.paramhub.topology.jobs.JobData;
import io.paramhub.topology.jobs.JobRecipe;
import io.paramhub.topology.jobs.JobSettings;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import io.paramhub.topology.placement.PlacementSettings;
import io.paramhub.worker.ComputeEmulation;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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

    @Mixin
    private JobRecipeOptions recipe;

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

    @Option(
            names = "--first-placement",
            paramLabel = "P:I,...",
            description =
                    "With several --aggregators on the embedded broker: start with shard partition P on aggregator "
                            + "I (the others balanced), instead of Kafka Streams' draw, so that runs compare from the same "
                            + "start; a run prints the one it started from in this form.")
    private String firstPlacement;

    @Override
    public Integer call() throws Exception {
        checkOptions();
        // while the data set loads and the cluster starts, not in the aggregator's first rebalance
        RocksDbLibrary.loadInBackground();
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
        final JobSpec spec = demo.requireValid(jobSpec(demo.spec(), data));
        final Path stateDir = Files.createTempDirectory("paramhub-streams-");
        try (DemoData.Allowance allowed = demo.allowFiles();
                LocalCluster cluster = LocalCluster.startOrConnect(connectionOptions.settings())) {
            out.println(cluster.describe());
            if (online.enabled()) {
                registerValueSchemas(cluster);
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
                    .withOrchestrator(orchestrated ? orchestration : null)
                    .withFirstPlacement(first());
            // the orchestrator also places shards on the aggregator instances when there are several
            final TrainingRun run = orchestrated && aggregators > 1
                    ? configured.withPlacement(PlacementSettings.defaults())
                    : configured;
            // as a deployment does once, before its first job: ParamHub's topics, created meanwhile, and the value
            // schemas, whose ids the run's clients then find in this JVM
            final CompletableFuture<Void> topics = CompletableFuture.runAsync(run::provisionTopics);
            registerValueSchemas(cluster);
            try {
                topics.join();
            } catch (final CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
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
                ServerReport.print(out, rounds, run.aggregatorIds(aggregators));
            }
            if (report != null) {
                final ObjectNode json = RunReport.toJson(result, tally, emulations);
                if (rounds != null) {
                    ServerReport.addTo(
                            json,
                            rounds,
                            serverEmulation,
                            run.aggregatorIds(aggregators),
                            result.aggregatorRebalances());
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

    private void registerValueSchemas(final LocalCluster cluster) {
        SchemaRegistration.registerValueSchemas(
                cluster.connection().topics(connectionOptions.topicPrefix()),
                cluster.connection().serdes());
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
        if (firstPlacement != null && (aggregators < 2 || connectionOptions.bootstrapServers() != null)) {
            throw new ParameterException(
                    command.commandLine(),
                    "--first-placement needs --aggregators 2 or more on the embedded broker (on a cluster, earlier "
                            + "placements would outrank it)");
        }
        first();
        if (online.problem() != null) {
            throw new ParameterException(command.commandLine(), online.problem());
        }
        try {
            recipe.addTo(JobSettings.none());
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
    }

    /** {@code --first-placement}, or none. */
    private FirstPlacement first() {
        try {
            return firstPlacement == null ? FirstPlacement.NONE : FirstPlacement.parse(firstPlacement, aggregators);
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
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

    /**
     * The job these options describe, through the one job recipe: what the user chose, and the demo's own choice of
     * shards where they chose none (one per aggregator; as many as partitions with a slow aggregator, fine-grained
     * enough to move load off it).
     */
    private JobSpec jobSpec(final String datasetSpec, final TrainTest data) {
        final int defaultShards = servers.slowed() ? TopicSetup.DEFAULT_SHARD_PARTITIONS : Math.max(1, aggregators);
        final JobSettings settings;
        final JobSpec spec;
        try {
            settings = recipe.addTo(jobSpec.settings())
                    .job(job != null ? job : "demo-" + System.currentTimeMillis())
                    .model(model)
                    .workers(workers)
                    .epochs(epochs())
                    .shards(jobSpec.shards() != null ? jobSpec.shards() : defaultShards);
            spec = JobRecipe.spec(settings, JobData.ofFile(datasetSpec, data.train()));
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
        final int requested = JobRecipe.requestedShards(settings);
        if (spec.getShards() > requested && recipe.stages() == 1) {
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
