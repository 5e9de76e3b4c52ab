package io.paramhub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.bench.PolicyBenchCommand;
import io.paramhub.bench.Scenario;
import io.paramhub.bench.replay.RecordCommand;
import io.paramhub.topology.jobs.JobRecipe;
import io.paramhub.worker.SubmitJobApp;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Help.Ansi;

/**
 * The options the {@code paramhub} subcommands share with the apps ({@code ClusterOptions},
 * {@code JobSpecOptions}, {@code EmulationOptions}) keep each subcommand's own wording and defaults in its
 * help ({@link OptionTexts}), while the apps keep theirs.
 */
class OptionTextsTest {

    private static String help(final String... subcommands) {
        CommandLine command = new CommandLine(new ParamHubCli());
        for (final String subcommand : subcommands) {
            command = command.getSubcommands().get(subcommand);
        }
        return command.getUsageMessage(Ansi.OFF).replaceAll("\\s+", " ");
    }

    @Test
    void shouldWordSharedOptionsAsEachSubcommandDoesWhenHelpIsShown() {
        assertThat(help("demo"))
                .contains(
                        "Use this Kafka cluster instead of an embedded broker.",
                        "Use this schema registry instead of an embedded one.",
                        "Prefix of every topic name (default: paramhub.).",
                        "Learning rate (default: 0.002 for mlp, 0.001 for cnn",
                        "Passes over the training set (default: " + JobRecipe.DEFAULT_EPOCHS + ").",
                        "Seed of initial parameters and batches (default: 42).",
                        "(default: " + ComputeEmulationOptions.SLOWDOWN_SAMPLE_COST_US
                                + " when --slowdown is given, else 0)");
        for (final Scenario scenario : Scenario.values()) {
            assertThat(help("bench", scenario.label()))
                    .contains(
                            "(the bench runs its own aggregators and orchestrator there)",
                            "Seed of initial parameters, batches and the interference schedule (default: 42).",
                            "SSP's bound in clocks (default: 3).",
                            "SGD momentum of bsp and paramhub (default: " + PolicyBenchCommand.DEFAULT_MOMENTUM + ").",
                            "several exactly-once Kafka round trips (default: "
                                    + PolicyBenchCommand.DEFAULT_SAMPLE_COST_US + ").",
                            "Parameter shards (default: " + PolicyBenchCommand.DEFAULT_SHARDS + ").");
        }
        assertThat(help("bench", "round-cost"))
                .contains(
                        "Use this Kafka cluster instead of an embedded broker.",
                        "Passes over the training set, the same for every model (default: 1,",
                        "Parameter shards, as the demo",
                        "(default: 1).")
                .doesNotContain("--lr", "--policies", "--stages", "--aggregators");
        assertThat(help("bench", "hybrid"))
                .contains(
                        "a stage worker pays its stage's share of the model's multiply-adds (default: "
                                + PolicyBenchCommand.DEFAULT_SAMPLE_COST_US + ").",
                        "Passes over the training set, the same for both runs (default: 1).")
                .doesNotContain("--lr", "--policies", "--replay-clocks", "--aggregators");
        assertThat(help("record"))
                .contains(
                        "Kafka cluster (default: " + RecordCommand.UP_BOOTSTRAP_SERVERS,
                        "Schema registry (default: " + RecordCommand.UP_REGISTRY_URL + ").");
        assertThat(help("replay")).contains("Prefix of the replay's topics (default: replay-<time>.).");
        assertThat(help("stream"))
                .contains(
                        "Kafka cluster (default: " + RecordCommand.UP_BOOTSTRAP_SERVERS,
                        "Schema registry (default: " + RecordCommand.UP_REGISTRY_URL + ").",
                        "Not used: --topic is the topic's full name.",
                        "0 = as fast as possible (default: 1000).",
                        "example id to partition id % partitions.");
    }

    @Test
    void shouldKeepTheAppsWordingWhenAnAppShowsItsHelp() {
        // given
        final String submit =
                new CommandLine(new SubmitJobApp()).getUsageMessage(Ansi.OFF).replaceAll("\\s+", " ");

        // then
        assertThat(submit)
                .contains(
                        "Kafka bootstrap servers: bootstrap.servers, env KAFKA_BOOTSTRAP_SERVERS.",
                        "Learning rate (default: 0.002 for mlp and 0.001 for cnn with Adam, 0.05 with SGD).",
                        "Passes over the data (default: 3).",
                        "Seed (default: 42).",
                        "Parameter shards, at least; raised so that no shard carries more than 256 KiB (default: 1).");
    }
}
