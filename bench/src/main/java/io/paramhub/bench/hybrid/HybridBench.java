package io.paramhub.bench.hybrid;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.Directories;
import io.paramhub.embedded.LocalCluster;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.topology.TopicCatalog;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;

/**
 * {@code paramhub bench --scenario hybrid}: the same BSP job trained data-parallel, then as replicas x stages
 * (hybrid data and model parallel), one after the other on the same cluster with the same emulated sample
 * cost ({@link HybridRun}); writes {@code report.json} ({@link HybridReport}) and prints a table and a verdict
 * per byte budget ({@link HybridVerdicts}).
 */
public final class HybridBench {

    private HybridBench() {}

    public static void run(
            final HybridBenchSettings settings,
            final Properties connectionSettings,
            final Path out,
            final PrintStream console)
            throws Exception {
        final long started = System.nanoTime();
        final boolean terminal = System.console() != null;
        Files.createDirectories(out);
        final Path stateDir = Files.createTempDirectory("paramhub-hybrid-bench-");
        try (LocalCluster cluster = LocalCluster.startOrConnect(connectionSettings);
                Admin admin = Admin.create(cluster.connection().client())) {
            console.println(cluster.describe());
            console.printf(
                    Locale.ROOT,
                    "hybrid bench: %s (%,d parameters) on %s, BSP, batch %d, %d epoch(s); %d workers data-parallel, "
                            + "then %d replicas x %d stages (up to %d micro-batches); emulated cost %d us a sample "
                            + "(stage shares of it: %s)%n",
                    settings.model().kind(),
                    settings.model().parameterCount(),
                    settings.dataset(),
                    settings.batch(),
                    settings.epochs(),
                    settings.workers(),
                    settings.replicas(),
                    settings.stages(),
                    settings.microBatches(),
                    settings.sampleCostMicros(),
                    shares(settings));
            final TopicCatalog topics = cluster.connection().topics(settings.topicPrefix());
            final String stamp = Long.toString(System.currentTimeMillis());
            final ArmCost dataParallel =
                    arm("data-parallel", false, settings, cluster, admin, topics, stamp, stateDir, console, terminal);
            final ArmCost hybrid =
                    arm("hybrid", true, settings, cluster, admin, topics, stamp, stateDir, console, terminal);
            final List<ArmCost> runs = List.of(dataParallel, hybrid);
            final Map<String, String> verdicts = HybridVerdicts.of(dataParallel, hybrid, settings.batch());
            final Double breakEven = HybridVerdicts.breakEvenBatch(dataParallel, hybrid, settings.batch());
            final ObjectNode report = HybridReport.toJson(
                    settings,
                    runs,
                    verdicts,
                    breakEven,
                    (System.nanoTime() - started) / 1e9,
                    cluster.bootstrapServers(),
                    cluster.embedded());
            HybridReport.write(out.resolve("report.json"), report);
            print(console, runs, verdicts);
            console.printf(
                    Locale.ROOT,
                    "report written to %s (%.0f s in all)%n",
                    out.resolve("report.json"),
                    (System.nanoTime() - started) / 1e9);
        } finally {
            Directories.deleteRecursively(stateDir);
        }
    }

    private static ArmCost arm(
            final String name,
            final boolean staged,
            final HybridBenchSettings settings,
            final LocalCluster cluster,
            final Admin admin,
            final TopicCatalog topics,
            final String stamp,
            final Path stateDir,
            final PrintStream console,
            final boolean terminal)
            throws InterruptedException {
        final JobSpec spec = settings.jobSpec(staged, "hybrid-bench-" + name + "-" + stamp);
        console.printf(
                Locale.ROOT,
                "%n%s: %d workers, %d stage(s), %d shards; training through Kafka...%n",
                name,
                spec.getExpectedWorkers(),
                spec.getStages(),
                spec.getShards());
        final TrainingRun training = new TrainingRun(
                        cluster.connection(), settings.topicPrefix(), stateDir.resolve(spec.getJob()))
                .withEmulation(settings.emulations())
                // each worker sends its own gradients, as on hosts of their own: the arms compare what a worker sends
                .withoutHostSum();
        return ArmCost.of(
                name, settings, HybridRun.run(training, admin, spec, settings.data(), console, terminal), topics);
    }

    private static String shares(final HybridBenchSettings settings) {
        final StringBuilder text = new StringBuilder();
        for (int k = 0; k < settings.stages(); k++) {
            text.append(k == 0 ? "" : ", ")
                    .append(String.format(
                            Locale.ROOT, "%.1f%%", 100 * settings.model().computeShare(k, settings.stages())));
        }
        return text.toString();
    }

    private static void print(final PrintStream console, final List<ArmCost> runs, final Map<String, String> verdicts) {
        console.println();
        console.println("run            rounds/s  compute ms  wait ms  stage wait ms  gradient KiB  activation KiB"
                + "  model read KiB  held max  test");
        for (final ArmCost run : runs) {
            console.printf(
                    Locale.ROOT,
                    "%-13s  %8.2f  %10.1f  %7.1f  %13.1f  %12.0f  %14.0f  %14.0f  %7.1f%%  %.4f%n",
                    run.name(),
                    run.roundsPerSecond(),
                    run.computeMsMean(),
                    run.waitMsMean(),
                    run.stageWaitMsMean(),
                    run.gradientBytesPerRound() / 1024,
                    run.activationBytesPerRound() / 1024,
                    run.modelBytesReadPerRound() / 1024,
                    100 * run.parametersHeldMaxFraction(),
                    run.testMetric());
        }
        console.println("(per round: means over the workers; bytes the brokers wrote, model reads estimated)");
        verdicts.forEach((budget, line) -> console.println(budget + ": " + line));
    }
}
