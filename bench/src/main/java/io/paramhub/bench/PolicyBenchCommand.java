package io.paramhub.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.embedded.ConnectionOptions;
import io.paramhub.embedded.Directories;
import io.paramhub.embedded.LocalCluster;
import io.paramhub.embedded.ServerEmulationOptions;
import io.paramhub.launcher.EmulationOptions;
import io.paramhub.launcher.JobSpecOptions;
import io.paramhub.ml.BatchPlan;
import io.paramhub.worker.ComputeEmulation;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code paramhub bench SCENARIO}, for the five heterogeneity {@link Scenario}s: trains the same job once per
 * synchronisation {@link Policy}, one after the other on the same cluster, and writes {@code report.json} and PNG
 * plots comparing them. {@link BenchCommand} makes one such subcommand per scenario.
 */
@Command(
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Compares synchronisation policies under emulated heterogeneity: trains the same job once per policy "
                    + "(bsp, ssp, asp, paramhub = bsp with the orchestrator), on an embedded Kafka broker unless "
                    + "--bootstrap-servers is given, and writes DIR/report.json and PNG plots (test metric over time, "
                    + "iteration-time SD over time, a per-worker timeline of compute and wait).",
            "Compute is EMULATED: every sample costs --sample-cost-us microseconds (padded by sleeping) times the "
                    + "worker's slowdown, so that a few workers on a small machine measure the protocol, not CPU "
                    + "contention. Every policy trains the same number of iterations (--epochs); the report gives time "
                    + "to --target, speed-up over bsp, efficiency against the heterogeneous ideal (total samples / sum "
                    + "of the workers' emulated speeds, clock by clock), iteration-time mean and SD, and idle fraction."
        })
public final class PolicyBenchCommand implements Callable<Integer> {

    public static final int DEFAULT_SHARDS = 4;
    /** SGD momentum of bsp and paramhub when {@code --momentum} is not given. */
    public static final double DEFAULT_MOMENTUM = 0.9;
    /** Emulated cost of a sample on one thread when {@code --sample-cost-us} is not given. */
    public static final long DEFAULT_SAMPLE_COST_US = 4000;

    /**
     * How this subcommand words the options it shares with the apps ({@code JobSpecOptions},
     * {@code EmulationOptions}, {@code ClusterOptions}), by option name: the command's resource bundle gives
     * them under each scenario's qualified name.
     */
    public static final Map<String, String> OPTION_TEXTS = Map.of(
            "bootstrap-servers",
            "Use this Kafka cluster instead of an embedded broker (the bench runs its own aggregators and "
                    + "orchestrator there).",
            "seed",
            "Seed of initial parameters, batches and the interference schedule (default: ${DEFAULT-VALUE}).",
            "staleness",
            "SSP's bound in clocks (default: ${DEFAULT-VALUE}).",
            "epochs",
            "Passes over the training set, the same for every policy (default: 8 for linear-rmse = 256 "
                    + "iterations, 3 for fashion-softmax = 192).",
            "sample-cost-us",
            "Emulated compute cost of one sample on one thread, in microseconds; with the defaults a fast worker "
                    + "computes 128 ms an iteration, several exactly-once Kafka round trips (default: "
                    + DEFAULT_SAMPLE_COST_US + ").",
            "batch",
            "Global batch (default: ${DEFAULT-VALUE}).",
            "lr",
            "Learning rate (default: 0.002 for linear-rmse, 0.05 for fashion-softmax, the demo's for mlp and cnn).",
            "momentum",
            "SGD momentum of bsp and paramhub (default: " + DEFAULT_MOMENTUM + ").",
            "shards",
            "Parameter shards (default: " + DEFAULT_SHARDS + ").");

    private final Scenario scenario;

    @Spec
    private CommandSpec command;

    @Option(
            names = "--policies",
            defaultValue = "bsp,ssp,asp,paramhub",
            description = "Comma-separated policies, run in this order (default: ${DEFAULT-VALUE}).")
    private String policies;

    @Option(names = "--out", required = true, description = "Directory for report.json and the plots.")
    private Path out;

    @Option(names = "--workers", defaultValue = "4", description = "Workers (default: ${DEFAULT-VALUE}).")
    private int workers;

    @Option(
            names = "--aggregators",
            defaultValue = "1",
            description = "Aggregator instances to run in this JVM (default: ${DEFAULT-VALUE}); with several, the "
                    + "orchestrating policies also move shards off slow instances.")
    private int aggregators;

    @Mixin
    private ServerEmulationOptions servers;

    @Option(
            names = "--task",
            description = "linear-rmse (linear regression, n=4096 d=16, test RMSE) or fashion-MODEL (MODEL on the "
                    + "first 8192 Fashion-MNIST training images, accuracy on 2000 test images; fashion-softmax, "
                    + "fashion-mlp, fashion-cnn) (default: linear-rmse, or fashion-MODEL with --model).")
    private String taskName;

    @Option(
            names = "--model",
            description = "softmax, mlp or cnn (or a shape such as mlp:64): the Fashion-MNIST task with this model, "
                    + "trained as the demo trains it (mlp and cnn: Adam with a cosine-annealed rate); not with --task "
                    + "linear-rmse.")
    private String model;

    @Option(
            names = "--target",
            description = "Test metric to reach: RMSE at most this (default 0.15) or "
                    + "accuracy at least this (default 0.75).")
    private Double target;

    @Mixin
    private JobSpecOptions jobSpec;

    @Mixin
    private EmulationOptions emulation;

    @Option(
            names = "--async-momentum",
            defaultValue = "0.9",
            description = "SGD momentum of ssp and asp; the "
                    + "same as bsp's by default so that policies differ only in synchronisation (the demo uses 0.5) "
                    + "(default: ${DEFAULT-VALUE}).")
    private double asyncMomentum;

    @Option(
            names = "--timeline-seconds",
            defaultValue = "4",
            description =
                    "Seconds of each run the worker timeline shows, around its middle (default: ${DEFAULT-VALUE}).")
    private double timelineSeconds;

    @Option(
            names = "--warm-up",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Run one untimed epoch first so that the first policy does not pay for a cold JVM "
                    + "(default: ${DEFAULT-VALUE}).")
    private boolean warmUp;

    @Mixin
    private ConnectionOptions clusterOptions;

    /** The subcommand of {@code scenario}. */
    public PolicyBenchCommand(final Scenario scenario) {
        this.scenario = scenario;
    }

    @Override
    public Integer call() throws Exception {
        final BenchSettings settings = settings();
        final PrintStream console = System.out;
        final boolean terminal = System.console() != null;
        final long started = System.nanoTime();
        Files.createDirectories(out);
        final Path stateDir = Files.createTempDirectory("paramhub-bench-");
        try (LocalCluster cluster = LocalCluster.startOrConnect(clusterOptions.settings())) {
            console.println(cluster.describe());
            console.printf(
                    Locale.ROOT,
                    "bench %s: %s; %d workers, %s, %d iterations of batch %d per policy, "
                            + "target %s %s %s; emulated cost %d us a sample; heterogeneous ideal %.1f s%n",
                    settings.scenario().label(),
                    settings.scenario().description(),
                    workers,
                    settings.task().name(),
                    settings.clocks(),
                    jobSpec.batch(),
                    settings.task().metric(),
                    settings.task().lowerIsBetter() ? "<=" : ">=",
                    settings.target(),
                    sampleCostMicros(),
                    settings.idealSeconds());
            final PolicyRunner runner =
                    new PolicyRunner(cluster.connection(), clusterOptions.topicPrefix(), stateDir, console, terminal);
            final String stamp = Long.toString(System.currentTimeMillis());
            if (warmUp) {
                console.println("warming up (one untimed epoch of bsp without emulation)...");
                final long warmUpStart = System.nanoTime();
                runner.warmUp(settings, "bench-warmup-" + stamp);
                console.printf(Locale.ROOT, "warm-up took %.1f s%n", (System.nanoTime() - warmUpStart) / 1e9);
            }
            final List<PolicyRun> runs = new ArrayList<>();
            for (final Policy policy : settings.policies()) {
                final PolicyRun run = runner.run(
                        settings, policy, "bench-" + settings.scenario().label() + "-" + policy.label() + "-" + stamp);
                runs.add(run);
                final PolicyOutcome outcome = run.outcome();
                console.printf(
                        Locale.ROOT,
                        "  %-9s trained in %.1f s; %s %.4f; target %s; idle %.1f%%; " + "iteration %.0f +- %.0f ms%n",
                        policy.label(),
                        outcome.trainTimeS(),
                        settings.task().metric(),
                        outcome.finalMetric(),
                        outcome.timeToTargetS() == null
                                ? "not reached"
                                : String.format(Locale.ROOT, "at %.1f s", outcome.timeToTargetS()),
                        100 * outcome.idleFraction(),
                        outcome.iterTimeMeanMs(),
                        outcome.iterTimeSdMs());
            }
            final Map<String, String> plots = BenchPlots.write(out, settings, runs, timelineSeconds);
            final ObjectNode report = BenchReport.toJson(
                    settings,
                    runs,
                    (System.nanoTime() - started) / 1e9,
                    cluster.bootstrapServers(),
                    cluster.embedded(),
                    plots);
            BenchReport.write(out.resolve("report.json"), report);
            printTable(console, report);
            console.printf(
                    Locale.ROOT,
                    "report and plots written to %s (%.0f s in all)%n",
                    out,
                    (System.nanoTime() - started) / 1e9);
        } finally {
            Directories.deleteRecursively(stateDir);
        }
        return 0;
    }

    /** {@code --momentum}, or its default. */
    private double momentum() {
        return jobSpec.momentum() != null ? jobSpec.momentum() : DEFAULT_MOMENTUM;
    }

    /** {@code --sample-cost-us}, or its default. */
    private long sampleCostMicros() {
        return emulation.sampleCostMicros(DEFAULT_SAMPLE_COST_US);
    }

    private static void printTable(final PrintStream console, final ObjectNode report) {
        console.println("policy     to target s  speed-up  train s  efficiency  iter ms mean  sd  idle  final");
        report.get("policies")
                .forEach(policy -> console.printf(
                        Locale.ROOT,
                        "%-9s  %11s  %8s  %7.1f  %10s  %12.1f  %6.1f  %4.2f  %.4f%n",
                        policy.get("name").asText(),
                        number(policy.get("time_to_target_s"), "%.1f"),
                        number(policy.get("speedup_vs_bsp"), "%.2f"),
                        policy.get("train_time_s").asDouble(),
                        number(policy.get("efficiency_vs_ideal"), "%.2f"),
                        policy.get("iter_time_mean_ms").asDouble(),
                        policy.get("iter_time_sd_ms").asDouble(),
                        policy.get("idle_fraction").asDouble(),
                        policy.get("final_metric").asDouble()));
    }

    private static String number(final JsonNode node, final String format) {
        return node == null || node.isNull() ? "-" : String.format(Locale.ROOT, format, node.asDouble());
    }

    /** The options, checked, with the task's data loaded and the scenario's emulation drawn. */
    private BenchSettings settings() {
        try {
            final List<Policy> chosenPolicies = Policy.parseList(policies);
            final int chosenShards = jobSpec.shards() != null ? jobSpec.shards() : DEFAULT_SHARDS;
            if (workers < 1
                    || aggregators < 1
                    || jobSpec.staleness() < 0
                    || sampleCostMicros() < 0
                    || jobSpec.batch() < workers
                    || chosenShards < 1
                    || timelineSeconds <= 0
                    || jobSpec.epochs() != null && jobSpec.epochs() < 1) {
                throw new IllegalArgumentException("need --workers >= 1, --aggregators >= 1, --staleness >= 0, "
                        + "--sample-cost-us >= 0, "
                        + "--batch >= --workers, --shards >= 1, --epochs >= 1 and --timeline-seconds > 0");
            }
            final BenchTask task = BenchTask.load(taskName, model);
            final int chosenEpochs = jobSpec.epochs() != null ? jobSpec.epochs() : task.defaultEpochs();
            final int batch = jobSpec.batch();
            final long seed = jobSpec.seed();
            final long sampleCost = sampleCostMicros();
            final long clocks =
                    (long) new BatchPlan(task.data().train().size(), batch, seed).iterationsPerEpoch() * chosenEpochs;
            final Map<Integer, ComputeEmulation> emulations = scenario.emulations(workers, sampleCost, clocks, seed);
            return new BenchSettings(
                    scenario,
                    chosenPolicies,
                    task,
                    workers,
                    target != null ? target : task.defaultTarget(),
                    seed,
                    chosenEpochs,
                    batch,
                    chosenShards,
                    jobSpec.learningRate() != null ? jobSpec.learningRate() : task.defaultLearningRate(),
                    momentum(),
                    asyncMomentum,
                    jobSpec.staleness(),
                    sampleCost,
                    clocks,
                    emulations,
                    IdealTime.seconds(emulations, clocks, batch, 1),
                    aggregators,
                    servers.emulation(aggregators));
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
    }
}
