package io.paramhub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.bench.BenchCommand;
import io.paramhub.bench.replay.RecordCommand;
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

    private static String help(final String subcommand) {
        return new CommandLine(new ParamHubCli())
                .getSubcommands()
                .get(subcommand)
                .getUsageMessage(Ansi.OFF)
                .replaceAll("\\s+", " ");
    }

    @Test
    void shouldWordSharedOptionsAsEachSubcommandDoesWhenHelpIsShown() {
        assertThat(help("demo"))
                .contains(
                        "Use this Kafka cluster instead of an embedded broker.",
                        "Use this schema registry instead of an embedded one.",
                        "Prefix of every topic name (default: paramhub.).",
                        "Learning rate (default: 0.002 for mlp, 0.001 for cnn",
                        "Passes over the training set (default: " + DemoCommand.DEFAULT_EPOCHS + ").",
                        "Seed of initial parameters and batches (default: 42).",
                        "(default: " + DemoCommand.SLOWDOWN_SAMPLE_COST_US + " when --slowdown is given, else 0)");
        assertThat(help("bench"))
                .contains(
                        "(the bench runs its own aggregators and orchestrator there)",
                        "Seed of initial parameters, batches and the interference schedule (default: 42).",
                        "SSP's bound in clocks (default: 3).",
                        "SGD momentum of bsp and paramhub (default: " + BenchCommand.DEFAULT_MOMENTUM + ").",
                        "a stage worker pays its stage's share of the model's multiply-adds (default: "
                                + BenchCommand.DEFAULT_SAMPLE_COST_US + ").",
                        "Parameter shards (default: " + BenchCommand.DEFAULT_SHARDS + "; round-cost:");
        assertThat(help("record"))
                .contains(
                        "Kafka cluster (default: " + RecordCommand.UP_BOOTSTRAP_SERVERS,
                        "Schema registry (default: " + RecordCommand.UP_REGISTRY_URL + ").");
        assertThat(help("replay")).contains("Prefix of the replay's topics (default: replay-<time>.).");
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
                        "Learning rate (default: 0.01).",
                        "Passes over the data (default: 3).",
                        "Seed (default: 42).",
                        "Parameter shards, at least; raised so that no shard carries more than 256 KiB (default: 4).");
    }
}
