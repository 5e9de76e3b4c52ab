package io.paramhub.bench.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.embedded.ConnectionOptions;
import io.paramhub.embedded.Directories;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.embedded.LocalCluster;
import io.paramhub.embedded.Percentiles;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code paramhub replay}: feeds a recording at full speed into a fresh aggregator or orchestrator. */
@Command(
        name = "replay",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Feeds a recording (from `paramhub record`) at full speed, with its recorded timestamps, into a "
                    + "fresh aggregator or orchestrator (a new application.id and topic prefix), on an embedded broker unless "
                    + "--bootstrap-servers is given.",
            "aggregator: reports gradient throughput (MB/s, floats/s), the latency of each model update after its "
                    + "barrier's last gradient was acknowledged (p50, p99; under BSP; at full speed it includes queueing) "
                    + "and whether the final model equals the recorded one bit for bit (it must under BSP).",
            "orchestrator: reports telemetry records/s and whether the newest command per worker equals the "
                    + "recorded one."
        })
public final class ReplayCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Spec
    private CommandSpec command;

    @Option(names = "--in", required = true, description = "The recording directory.")
    private Path in;

    @Option(
            names = "--target",
            defaultValue = "aggregator",
            description = "aggregator or orchestrator (default: ${DEFAULT-VALUE}).")
    private String target;

    @Option(names = "--report", description = "Write a JSON report here (default: IN/replay-TARGET.json).")
    private Path report;

    @Option(
            names = "--kafka-limits",
            description =
                    "With --target aggregator: then measure Kafka's own limits on the "
                            + "same cluster with records of the gradients' mean size (ProducerPerformance, ConsumerPerformance, an "
                            + "exactly-once pass-through Streams app) and report the aggregator's throughput as a ratio of each.")
    private boolean kafkaLimits;

    @Option(
            names = "--limit-records",
            defaultValue = "50000",
            description = "With --kafka-limits: records each Kafka measurement moves (default: ${DEFAULT-VALUE}).")
    private long limitRecords;

    @Mixin
    private ConnectionOptions clusterOptions;

    @Override
    public Integer call() throws Exception {
        if (!"aggregator".equals(target) && !"orchestrator".equals(target)) {
            throw new ParameterException(
                    command.commandLine(), "--target must be aggregator or orchestrator, not " + target);
        }
        final Recording recording = Recording.load(in);
        final String stamp = Long.toString(System.currentTimeMillis());
        final String prefix =
                clusterOptions.givenTopicPrefix() != null ? clusterOptions.givenTopicPrefix() : "replay-" + stamp + ".";
        final String applicationId = "paramhub-replay-" + target + "-" + stamp;
        final PrintStream out = System.out;
        final Path stateDir = Files.createTempDirectory("paramhub-replay-");
        final ObjectNode json = JSON.createObjectNode();
        try (LocalCluster cluster = LocalCluster.startOrConnect(clusterOptions.settings())) {
            json.put("job", recording.job().getJob());
            json.put("sync", recording.job().getSyncMode().name().toLowerCase(Locale.ROOT));
            json.put("target", target);
            json.put("topic_prefix", prefix);
            json.put("application_id", applicationId);
            if ("aggregator".equals(target)) {
                final AggregatorReplay.Outcome outcome =
                        AggregatorReplay.run(recording, cluster.connection(), prefix, applicationId, stateDir);
                aggregatorJson(json, outcome);
                out.printf(
                        Locale.ROOT,
                        "replayed %d gradients (%.2f MB) of job %s into a fresh aggregator in %.2f s: "
                                + "%.2f MB/s, %.0f floats/s; update latency after the barrier p50 %.1f ms, p99 %.1f ms%n",
                        outcome.gradients(),
                        outcome.gradientBytes() / (1024.0 * 1024.0),
                        outcome.job(),
                        outcome.seconds(),
                        outcome.megabytesPerSecond(),
                        outcome.floatsPerSecond(),
                        Percentiles.of(outcome.updateLatenciesMs(), 50),
                        Percentiles.of(outcome.updateLatenciesMs(), 99));
                out.printf(
                        Locale.ROOT,
                        "final model: version %d (recorded %d), %d of %d parameters differ: %s%n",
                        outcome.replayedVersion(),
                        outcome.targetVersion(),
                        outcome.differingParameters(),
                        outcome.parameters(),
                        outcome.bitIdentical() ? "bit-identical" : "DIFFERENT");
                if (kafkaLimits) {
                    limits(json, recording, outcome, cluster.connection(), prefix, stateDir, out);
                }
            } else {
                final OrchestratorReplay.Outcome outcome =
                        OrchestratorReplay.run(recording, cluster.connection(), prefix, applicationId, stateDir);
                json.put("telemetry_records", outcome.telemetry());
                json.put("seconds", outcome.seconds());
                json.put("telemetry_per_second", outcome.telemetryPerSecond());
                json.put("commands", outcome.commands());
                json.put("recorded_commands", outcome.recordedCommands());
                json.put("same_final_plan", outcome.samePlan());
                out.printf(
                        Locale.ROOT,
                        "replayed %d telemetry records of job %s into a fresh orchestrator: %.0f "
                                + "records/s (%.2f s from the first record sent to the last command read); %d commands (recorded %d, "
                                + "compacted); newest plan per worker %s%n",
                        outcome.telemetry(),
                        outcome.job(),
                        outcome.telemetryPerSecond(),
                        outcome.seconds(),
                        outcome.commands(),
                        outcome.recordedCommands(),
                        outcome.samePlan() ? "equals the recorded one" : "differs from the recorded one");
            }
        } finally {
            Directories.deleteRecursively(stateDir);
        }
        final Path file = report != null ? report : in.resolve("replay-" + target + ".json");
        JSON.writeValue(file.toFile(), json);
        out.println("report written to " + file);
        return 0;
    }

    /** Kafka's limits on the same cluster, with records of the recorded gradients' mean size, and the ratios. */
    private void limits(
            final ObjectNode json,
            final Recording recording,
            final AggregatorReplay.Outcome outcome,
            final KafkaConnection connection,
            final String prefix,
            final Path stateDir,
            final PrintStream out)
            throws IOException, InterruptedException {
        final KafkaComparison comparison = KafkaComparison.measure(
                recording, outcome, connection, prefix, Math.max(limitRecords, outcome.gradients()), stateDir);
        comparison.writeTo(json.putObject("kafka_limits"));
        out.println(comparison.summary());
    }

    private static void aggregatorJson(final ObjectNode json, final AggregatorReplay.Outcome outcome) {
        json.put("gradients", outcome.gradients());
        json.put("gradient_bytes", outcome.gradientBytes());
        json.put("seconds", outcome.seconds());
        json.put("gradient_records_per_s", outcome.recordsPerSecond());
        json.put("gradient_mb_per_s", outcome.megabytesPerSecond());
        json.put("floats_per_s", outcome.floatsPerSecond());
        json.put("update_latency_p50_ms", Percentiles.of(outcome.updateLatenciesMs(), 50));
        json.put("update_latency_p99_ms", Percentiles.of(outcome.updateLatenciesMs(), 99));
        json.put("update_latency_count", outcome.updateLatenciesMs().size());
        json.put("recorded_final_version", outcome.targetVersion());
        json.put("replayed_final_version", outcome.replayedVersion());
        json.put("differing_parameters", outcome.differingParameters());
        json.put("bit_identical", outcome.bitIdentical());
    }
}
