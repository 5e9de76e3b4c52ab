package io.paramhub.cli;

import io.paramhub.bench.PolicyBenchCommand;
import io.paramhub.bench.Scenario;
import io.paramhub.bench.replay.RecordCommand;
import io.paramhub.topology.jobs.JobRecipe;
import java.util.ArrayList;
import java.util.List;
import java.util.ListResourceBundle;

/**
 * How the {@code paramhub} command words the options it shares with the apps ({@code io.paramhub.launcher}'s
 * {@code ClusterOptions}, {@code JobSpecOptions} and {@code EmulationOptions}, whose own descriptions are the
 * apps'): picocli's resource bundle of {@link ParamHubCli}, which its subcommands inherit. A key is the option's
 * name without dashes, for every subcommand, or qualified by a subcommand ({@code paramhub.demo.seed}) for that one
 * only. The policy scenarios of {@code paramhub bench} word theirs in {@link PolicyBenchCommand#OPTION_TEXTS}.
 */
public final class OptionTexts extends ListResourceBundle {

    @Override
    protected Object[][] getContents() {
        final List<Object[]> texts = new ArrayList<>(List.of(new Object[][] {
            // every subcommand without a text of its own below
            {"bootstrap-servers", "Use this Kafka cluster instead of an embedded broker."},
            {"registry-url", "Use this schema registry instead of an embedded one."},
            // paramhub demo
            {"paramhub.demo.epochs", "Passes over the training set (default: " + JobRecipe.DEFAULT_EPOCHS + ")."},
            {"paramhub.demo.batch", "Global batch, split among workers (default: ${DEFAULT-VALUE})."},
            {
                "paramhub.demo.lr",
                "Learning rate (default: 0.002 for mlp, 0.001 for cnn, else 0.05 for sgd and 0.001 for adam)."
            },
            {
                "paramhub.demo.momentum",
                "SGD momentum (default: 0.9 for bsp, 0.5 for ssp and asp, whose stale updates already act "
                        + "as momentum)."
            },
            {
                "paramhub.demo.staleness",
                "SSP bound s: a worker starts clock c only when every live worker has finished the clocks "
                        + "before c-s (default: ${DEFAULT-VALUE})."
            },
            {
                "paramhub.demo.shards",
                "Parameter shards, at least; raised so that no shard carries more than 256 KiB of float32 "
                        + "(65,536 parameters), which keeps every record under Kafka's default 1 MiB limit even with Adam's "
                        + "state: e.g. mlp (235,146 parameters) gets 4, mlp:1024,512 21 (default: one per aggregator "
                        + "instance, --aggregators, at least 1: a shard is a unit of the aggregator's parallelism, and more "
                        + "shards than aggregators add records and transaction partitions to every round)."
            },
            {"paramhub.demo.seed", "Seed of initial parameters and batches (default: ${DEFAULT-VALUE})."},
            {
                "paramhub.demo.sample-cost-us",
                "Emulated compute cost: each sample costs at least this many microseconds on every "
                        + "worker (divided among its compute threads), padded by sleeping, so that compute is heavy next to "
                        + "a Kafka round trip; 0 = the real cost only (default: "
                        + ComputeEmulationOptions.SLOWDOWN_SAMPLE_COST_US
                        + " when --slowdown is given, else 0)."
            },
            // paramhub record
            {
                "paramhub.record.bootstrap-servers",
                "Kafka cluster (default: " + RecordCommand.UP_BOOTSTRAP_SERVERS + ", the broker of `paramhub up`)."
            },
            {"paramhub.record.registry-url", "Schema registry (default: " + RecordCommand.UP_REGISTRY_URL + ")."},
            // paramhub jobs delete
            {
                "paramhub.jobs.delete.bootstrap-servers",
                "Kafka cluster (default: " + RecordCommand.UP_BOOTSTRAP_SERVERS + ", the broker of `paramhub up`)."
            },
            {"paramhub.jobs.delete.registry-url", "Schema registry; not contacted, a tombstone has no schema."},
            // paramhub jobs submit
            {
                "paramhub.jobs.submit.bootstrap-servers",
                "Kafka cluster: bootstrap.servers, env KAFKA_BOOTSTRAP_SERVERS (default: "
                        + RecordCommand.UP_BOOTSTRAP_SERVERS + ", the broker of `paramhub up`)."
            },
            {
                "paramhub.jobs.submit.registry-url",
                "Schema registry: schema.registry.url, env KAFKA_SCHEMA_REGISTRY_URL (default: "
                        + RecordCommand.UP_REGISTRY_URL + ")."
            },
            // paramhub model export
            {
                "paramhub.model.export.bootstrap-servers",
                "Kafka cluster (default: " + RecordCommand.UP_BOOTSTRAP_SERVERS + ", the broker of `paramhub up`)."
            },
            {"paramhub.model.export.registry-url", "Schema registry (default: " + RecordCommand.UP_REGISTRY_URL + ")."},
            // paramhub stream
            {
                "paramhub.stream.bootstrap-servers",
                "Kafka cluster (default: " + RecordCommand.UP_BOOTSTRAP_SERVERS + ", the broker of `paramhub up`)."
            },
            {"paramhub.stream.registry-url", "Schema registry (default: " + RecordCommand.UP_REGISTRY_URL + ")."},
            {"paramhub.stream.topic-prefix", "Not used: --topic is the topic's full name."},
            // paramhub replay
            {"paramhub.replay.topic-prefix", "Prefix of the replay's topics (default: replay-<time>.)."},
        }));
        // paramhub bench SCENARIO, for each policy scenario
        for (final Scenario scenario : Scenario.values()) {
            PolicyBenchCommand.OPTION_TEXTS.forEach((option, text) ->
                    texts.add(new Object[] {"paramhub.bench." + scenario.label() + "." + option, text}));
        }
        return texts.toArray(Object[][]::new);
    }
}
