package io.paramhub.cli;

import io.paramhub.bench.BenchCommand;
import io.paramhub.bench.hybrid.HybridBenchSettings;
import io.paramhub.bench.replay.RecordCommand;
import io.paramhub.bench.roundcost.RoundCostSettings;
import java.util.ListResourceBundle;

/**
 * How the {@code paramhub} command words the options it shares with the apps ({@code io.paramhub.launcher}'s
 * {@code ClusterOptions}, {@code JobSpecOptions} and {@code EmulationOptions}, whose own descriptions are the
 * apps'): picocli's resource bundle of {@link ParamHubCli}, which its subcommands inherit. A key is the
 * option's name without dashes, for every subcommand, or qualified by a subcommand
 * ({@code paramhub.bench.seed}) for that one only.
 */
public final class OptionTexts extends ListResourceBundle {

    @Override
    protected Object[][] getContents() {
        return new Object[][] {
            // paramhub demo, and any subcommand without a text of its own below
            {"bootstrap-servers", "Use this Kafka cluster instead of an embedded broker."},
            {"registry-url", "Use this schema registry instead of an embedded one."},
            {"epochs", "Passes over the training set (default: " + DemoCommand.DEFAULT_EPOCHS + ")."},
            {"batch", "Global batch, split among workers (default: ${DEFAULT-VALUE})."},
            {"lr", "Learning rate (default: 0.002 for mlp, 0.001 for cnn, else 0.05 for sgd and 0.001 for adam)."},
            {
                "momentum",
                "SGD momentum (default: 0.9 for bsp, 0.5 for ssp and asp, whose stale updates already act "
                        + "as momentum)."
            },
            {
                "staleness",
                "SSP bound s: a worker starts clock c only when every live worker has finished the clocks "
                        + "before c-s (default: ${DEFAULT-VALUE})."
            },
            {
                "shards",
                "Parameter shards, at least; raised so that no shard carries more than 256 KiB of float32 "
                        + "(65,536 parameters), which keeps every record under Kafka's default 1 MiB limit even with Adam's "
                        + "state: e.g. mlp (235,146 parameters) gets 4, mlp:1024,512 21 (default: one per aggregator "
                        + "instance, --aggregators, at least 1: a shard is a unit of the aggregator's parallelism, and more "
                        + "shards than aggregators add records and transaction partitions to every round)."
            },
            {"seed", "Seed of initial parameters and batches (default: ${DEFAULT-VALUE})."},
            {
                "sample-cost-us",
                "Emulated compute cost: each sample costs at least this many microseconds on every "
                        + "worker (divided among its compute threads), padded by sleeping, so that compute is heavy next to "
                        + "a Kafka round trip; 0 = the real cost only (default: " + DemoCommand.SLOWDOWN_SAMPLE_COST_US
                        + " when --slowdown is given, else 0)."
            },
            // paramhub bench
            {
                "paramhub.bench.bootstrap-servers",
                "Use this Kafka cluster instead of an embedded broker (the bench "
                        + "runs its own aggregators and orchestrator there)."
            },
            {
                "paramhub.bench.seed",
                "Seed of initial parameters, batches and the interference schedule " + "(default: ${DEFAULT-VALUE})."
            },
            {"paramhub.bench.staleness", "SSP's bound in clocks (default: ${DEFAULT-VALUE})."},
            {
                "paramhub.bench.epochs",
                "Passes over the training set, the same for every policy or model "
                        + "(default: 8 for linear-rmse = 256 iterations, 3 for fashion-softmax = 192; round-cost: "
                        + RoundCostSettings.DEFAULT_EPOCHS
                        + ", that is 468 rounds of batch 128 on all of Fashion-MNIST; hybrid: "
                        + HybridBenchSettings.DEFAULT_EPOCHS + ")."
            },
            {
                "paramhub.bench.sample-cost-us",
                "Emulated compute cost of one sample on one thread, in microseconds; "
                        + "with the defaults a fast worker computes 128 ms an iteration, several exactly-once Kafka round "
                        + "trips; hybrid: a stage worker pays its stage's share of the model's multiply-adds "
                        + "(default: " + BenchCommand.DEFAULT_SAMPLE_COST_US + ")."
            },
            {"paramhub.bench.batch", "Global batch (default: ${DEFAULT-VALUE})."},
            {
                "paramhub.bench.lr",
                "Learning rate (default: 0.002 for linear-rmse, 0.05 for fashion-softmax, the "
                        + "demo's for mlp and cnn)."
            },
            {
                "paramhub.bench.momentum",
                "SGD momentum of bsp and paramhub (default: " + BenchCommand.DEFAULT_MOMENTUM + ")."
            },
            {
                "paramhub.bench.shards",
                "Parameter shards (default: " + BenchCommand.DEFAULT_SHARDS + "; round-cost: "
                        + RoundCostSettings.DEFAULT_SHARDS
                        + " as the demo, raised as the demo raises it for a large model: "
                        + "the MLP gets 4; hybrid: at least what the cut needs, the same for both runs, e.g. 10 for "
                        + "the cnn in 2 stages)."
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
            // paramhub replay
            {"paramhub.replay.topic-prefix", "Prefix of the replay's topics (default: replay-<time>.)."},
        };
    }
}
