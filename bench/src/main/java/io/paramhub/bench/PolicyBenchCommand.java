package io.paramhub.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.bench.hybrid.HybridBench;
import io.paramhub.bench.hybrid.HybridBenchSettings;
import io.paramhub.bench.hybrid.HybridOptions;
import io.paramhub.bench.roundcost.RoundCostBench;
import io.paramhub.bench.roundcost.RoundCostSettings;
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
 * {@code paramhub bench}: runs one heterogeneity scenario under several synchronisation policies, one
 * after the other on the same cluster, and writes {@code report.json} and PNG plots comparing them; or, with
 * {@code --scenario round-cost}, measures what a BSP round costs ({@link RoundCostBench}); or, with
 * {@code --scenario hybrid}, compares a data-parallel and a hybrid data and model parallel run ({@link HybridBench}).
 */
@Command(
        name = "bench",
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
                    + "of the workers' emulated speeds, clock by clock), iteration-time mean and SD, and idle fraction.",
            "Scenarios: homogeneous; straggler-3x, straggler-5x (the last worker slowed from the start); "
                    + "late-straggler (the last worker 3x slower from clock 50); interference (every worker's slowdown "
                    + "redrawn from [1, 4] every 20 clocks, from --seed).",
            "--scenario round-cost measures instead what a BSP round through Kafka costs, with real compute: for each of "
                    + "--models, one job on Fashion-MNIST trained as `paramhub demo` trains it (barrier wait p50/p99/mean, "
                    + "rounds per second, start-up seconds, the aggregator's transactions per round, the bytes the brokers "
                    + "wrote per round to every topic, changelogs included) and the same job in this JVM; then the first "
                    + "--replay-clocks clocks of the MLP's job replayed into a fresh aggregator next to Kafka's own "
                    + "producer and an exactly-once pass-through Streams app with records of the same size. It takes "
                    + "--out, --models, --epochs, --workers, --batch, --seed, --shards, --train-samples, --replay-clocks, "
                    + "--bootstrap-servers, --registry-url and --topic-prefix, and refuses the other options.",
            "--scenario hybrid compares data-parallel and hybrid data and model parallel training: the same BSP job "
                    + "(--model, default cnn, on the first --train-samples Fashion-MNIST images, default "
                    + HybridBenchSettings.DEFAULT_TRAIN_SAMPLES + ", --epochs default 1) trained by --workers "
                    + "data-parallel workers, then by --workers / --stages replicas of --stages pipeline stages, with "
                    + "emulated compute (--sample-cost-us a sample; a stage worker pays its stage's share of the "
                    + "model's multiply-adds). It writes DIR/report.json with, for each run, rounds per second, "
                    + "compute, barrier and stage waits, the bytes a round of gradients, activations and their "
                    + "gradients, and model reads, the parameters each worker holds and the test accuracy, and prints "
                    + "which run moves fewer bytes a round for each budget and why. It takes --out, --model, "
                    + "--train-samples, --epochs, --workers, --stages, --micro-batches, --batch, --seed, --shards, "
                    + "--sample-cost-us, --bootstrap-servers, --registry-url and --topic-prefix, and refuses the other "
                    + "options."
        })
public final class BenchCommand implements Callable<Integer> {

    public static final int DEFAULT_SHARDS = 4;
    /** SGD momentum of bsp and paramhub when {@code --momentum} is not given. */
    public static final double DEFAULT_MOMENTUM = 0.9;
    /** Emulated cost of a sample on one thread when {@code --sample-cost-us} is not given. */
    public static final long DEFAULT_SAMPLE_COST_US = 4000;
    /** Options of the policy bench that round-cost refuses. */
    private static final List<String> POLICY_ONLY = List.of(
            "--policies",
            "--task",
            "--model",
            "--target",
            "--staleness",
            "--sample-cost-us",
            "--lr",
            "--momentum",
            "--async-momentum",
            "--timeline-seconds",
            "--warm-up",
            "--aggregators",
            "--aggregator-slowdown",
            "--aggregator-cost-us");
    /** Options of round-cost that the policy bench refuses. */
    private static final List<String> ROUND_COST_ONLY = List.of("--models", "--train-samples", "--replay-clocks");
    /** Options that --scenario hybrid refuses. */
    private static final List<String> NOT_HYBRID = List.of(
            "--policies",
            "--task",
            "--target",
            "--staleness",
            "--lr",
            "--momentum",
            "--async-momentum",
            "--timeline-seconds",
            "--warm-up",
            "--models",
            "--replay-clocks",
            "--aggregators",
            "--aggregator-slowdown",
            "--aggregator-cost-us");

    @Spec
    private CommandSpec command;

    @Option(
            names = "--scenario",
            required = true,
            description = "homogeneous, straggler-3x, straggler-5x, "
                    + "late-straggler, interference, round-cost (what a BSP round costs; see above), or hybrid "
                    + "(data-parallel against hybrid data and model parallel; see above).")
    private String scenario;

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
                    + "linear-rmse. hybrid: the model both runs train, mlp or cnn (or a shape), default "
                    + HybridBenchSettings.DEFAULT_MODEL + ".")
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
            names = "--models",
            paramLabel = "M1,M2,...",
            description = "round-cost only: the models to measure, in this order, on Fashion-MNIST, each trained as "
                    + "the demo trains it: softmax, mlp (784-256-128-10, Adam), or a shape such as mlp:64 or cnn "
                    + "(default: " + RoundCostSettings.DEFAULT_MODELS + ").")
    private String models;

    @Option(
            names = "--train-samples",
            description = "round-cost and hybrid only: train on the first N Fashion-MNIST training images (the whole "
                    + "test set scores them) (default: all 60,000; hybrid: "
                    + HybridBenchSettings.DEFAULT_TRAIN_SAMPLES + ").")
    private Integer trainSamples;

    @Option(
            names = "--replay-clocks",
            description = "round-cost only: how many of the replayed model's first clocks to replay into a fresh "
                    + "aggregator (all of its clocks when it has fewer); Kafka's limits are measured with as many "
                    + "records (default: " + RoundCostSettings.DEFAULT_REPLAY_CLOCKS + ").")
    private Long replayClocks;

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
    private HybridOptions hybridOptions;

    @Mixin
    private ConnectionOptions clusterOptions;

    @Override
    public Integer call() throws Exception {
        if (HybridBenchSettings.SCENARIO.equals(scenario.trim().toLowerCase(Locale.ROOT))) {
            HybridBench.run(hybridSettings(), clusterOptions.settings(), out, System.out);
            return 0;
        }
        refuse(HybridOptions.NAMES, "is for --scenario " + HybridBenchSettings.SCENARIO + " only");
        if (RoundCostSettings.SCENARIO.equals(scenario.trim().toLowerCase(Locale.ROOT))) {
            RoundCostBench.run(roundCostSettings(), clusterOptions.settings(), out, System.out);
            return 0;
        }
        refuse(
                List.of("--train-samples"),
                "is for --scenario " + RoundCostSettings.SCENARIO + " and " + HybridBenchSettings.SCENARIO + " only");
        refuse(ROUND_COST_ONLY, "is for --scenario " + RoundCostSettings.SCENARIO + " only");
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

    /** The round-cost options, checked, with Fashion-MNIST loaded; the policy bench's options refused. */
    private RoundCostSettings roundCostSettings() {
        refuse(POLICY_ONLY, "does not apply to --scenario " + RoundCostSettings.SCENARIO + " (see --help)");
        try {
            return RoundCostSettings.of(
                    models != null ? models : RoundCostSettings.DEFAULT_MODELS,
                    trainSamples,
                    workers,
                    jobSpec.batch(),
                    jobSpec.epochs() != null ? jobSpec.epochs() : RoundCostSettings.DEFAULT_EPOCHS,
                    jobSpec.seed(),
                    jobSpec.shards() != null ? jobSpec.shards() : RoundCostSettings.DEFAULT_SHARDS,
                    replayClocks != null ? replayClocks : RoundCostSettings.DEFAULT_REPLAY_CLOCKS,
                    clusterOptions.topicPrefix());
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
    }

    /** The hybrid bench's options, checked, with Fashion-MNIST loaded; the other scenarios' options refused. */
    private HybridBenchSettings hybridSettings() {
        refuse(NOT_HYBRID, "does not apply to --scenario " + HybridBenchSettings.SCENARIO + " (see --help)");
        try {
            return HybridBenchSettings.of(
                    model != null ? model : HybridBenchSettings.DEFAULT_MODEL,
                    trainSamples != null ? trainSamples : HybridBenchSettings.DEFAULT_TRAIN_SAMPLES,
                    workers,
                    hybridOptions.stages(),
                    hybridOptions.microBatches(),
                    jobSpec.batch(),
                    jobSpec.epochs() != null ? jobSpec.epochs() : HybridBenchSettings.DEFAULT_EPOCHS,
                    jobSpec.seed(),
                    jobSpec.shards(),
                    sampleCostMicros(),
                    clusterOptions.topicPrefix());
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
    }

    /** A usage error naming the first of {@code options} given on the command line. */
    private void refuse(final List<String> options, final String why) {
        for (final String option : options) {
            if (command.commandLine().getParseResult().hasMatchedOption(option)) {
                throw new ParameterException(command.commandLine(), option + " " + why);
            }
        }
    }

    /** The options, checked, with the task's data loaded and the scenario's emulation drawn. */
    private BenchSettings settings() {
        try {
            final Scenario chosen = parseScenario();
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
            final Map<Integer, ComputeEmulation> emulations = chosen.emulations(workers, sampleCost, clocks, seed);
            return new BenchSettings(
                    chosen,
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

    /** A heterogeneity scenario; the error names round-cost among the choices too. */
    private Scenario parseScenario() {
        try {
            return Scenario.parse(scenario);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "--scenario must be one of " + Scenario.names() + ", " + RoundCostSettings.SCENARIO + ", "
                            + HybridBenchSettings.SCENARIO + ", not " + scenario,
                    e);
        }
    }
}
