package io.paramhub.bench.roundcost;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.avro.JobSpec;
import io.paramhub.bench.replay.JobReplay;
import io.paramhub.embedded.Directories;
import io.paramhub.embedded.LocalCluster;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.ml.Model;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;

/**
 * {@code paramhub bench --scenario round-cost}: for each model, one BSP job through Kafka as the demo trains it
 * ({@link KafkaRoundCost}) and the same job in this JVM ({@link InProcessRun}); then the first clocks of one
 * model's job replayed into a fresh aggregator next to Kafka's own limits ({@link JobReplay}); writes
 * {@code report.json} and the plots, and prints a summary. Every job runs on the same cluster, one after the
 * other, on the topics of the given prefix; the replay on topics of its own.
 */
public final class RoundCostBench {

    private RoundCostBench() {}

    public static void run(
            final RoundCostSettings settings,
            final Properties connectionSettings,
            final Path out,
            final PrintStream console)
            throws Exception {
        final long started = System.nanoTime();
        final boolean terminal = System.console() != null;
        Files.createDirectories(out);
        final Path stateDir = Files.createTempDirectory("paramhub-round-cost-");
        try (LocalCluster cluster = LocalCluster.startOrConnect(connectionSettings);
                Admin admin = Admin.create(cluster.connection().client())) {
            console.println(cluster.describe());
            console.printf(
                    Locale.ROOT,
                    "round cost of %s on %s: %d workers, BSP, batch %d, %d epoch(s) each, "
                            + "as the demo trains them%n",
                    settings.models().stream().map(Model::kind).toList(),
                    settings.dataset(),
                    settings.workers(),
                    settings.batch(),
                    settings.epochs());
            final String stamp = Long.toString(System.currentTimeMillis());
            final Model replayed = settings.replayed();
            final List<ModelCost> costs = new ArrayList<>();
            JobSpec replayedJob = null;
            InProcessRun.Outcome replayedReference = null;
            for (final Model model : settings.models()) {
                final JobSpec spec = settings.jobSpec(model, RoundCostSettings.jobName(model, stamp));
                console.printf(
                        Locale.ROOT,
                        "%n%s: %d parameters in %d shard(s); training through Kafka...%n",
                        model.kind(),
                        model.parameterCount(),
                        spec.getShards());
                final TrainingRun training =
                        new TrainingRun(cluster.connection(), settings.topicPrefix(), stateDir.resolve(spec.getJob()));
                final KafkaRoundCost.Outcome kafka =
                        KafkaRoundCost.run(training, admin, spec, settings.data(), console, terminal);
                final long rounds = kafka.result().job().iterations();
                final int threads = Runtime.getRuntime().availableProcessors();
                console.printf(Locale.ROOT, "the same %d rounds in this JVM (%d threads)...%n", rounds, threads);
                final InProcessRun.Outcome local = InProcessRun.run(
                        spec, settings.data().train(), rounds, threads, Math.min(settings.replayClocks(), rounds));
                final ModelCost cost = ModelCost.of(kafka, local);
                costs.add(cost);
                console.printf(
                        Locale.ROOT,
                        "%s: %.1f rounds/s through Kafka (%.1f s of rounds after %.1f s of "
                                + "start-up), %.1f rounds/s in this JVM (%.1f s); %.2f transactions and %.1f KiB a round%n",
                        model.kind(),
                        cost.roundsPerSecond(),
                        cost.trainingSeconds(),
                        cost.startupSeconds(),
                        cost.inProcessRoundsPerSecond(),
                        cost.inProcessSeconds(),
                        cost.transactionsPerRound(),
                        cost.bytesPerRound() / 1024);
                if (model == replayed) {
                    replayedJob = spec;
                    replayedReference = local;
                }
            }
            console.printf(
                    Locale.ROOT,
                    "%nreplaying the first %d clocks of %s into a fresh aggregator, then Kafka's "
                            + "limits with records of its gradients' size...%n",
                    replayedReference.checkpointClocks(),
                    replayed.kind());
            JobReplay.Outcome replay = null;
            String skipped = null;
            try {
                replay = JobReplay.run(
                        cluster.connection(),
                        settings.topicPrefix(),
                        replayedJob.getJob(),
                        replayedReference.checkpointClocks(),
                        replayedReference.checkpointParameters(),
                        stateDir.resolve("replay"));
            } catch (final JobReplay.RecordsGone e) {
                skipped = e.getMessage();
                console.println("replay skipped: " + skipped);
            }
            final Map<String, String> plots = RoundCostPlots.write(out, costs);
            final ObjectNode report = RoundCostReport.toJson(
                    settings,
                    costs,
                    replayed.kind(),
                    replay,
                    skipped,
                    (System.nanoTime() - started) / 1e9,
                    cluster.bootstrapServers(),
                    cluster.embedded(),
                    plots);
            RoundCostReport.write(out.resolve("report.json"), report);
            RoundCostTable.print(console, costs, replayed.kind(), replay, skipped);
            console.printf(
                    Locale.ROOT,
                    "report and plots written to %s (%.0f s in all)%n",
                    out,
                    (System.nanoTime() - started) / 1e9);
        } finally {
            Directories.deleteRecursively(stateDir);
        }
    }
}
