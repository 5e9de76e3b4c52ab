package io.paramhub.bench.roundcost;

import io.paramhub.bench.WorkloadOptions;
import io.paramhub.embedded.ConnectionOptions;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code paramhub bench round-cost}: what a BSP round through Kafka costs, with real compute ({@link RoundCostBench}). */
@Command(
        name = RoundCostSettings.SCENARIO,
        header = "What a BSP round through Kafka costs, with real compute, next to Kafka's own limits.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Measures what a BSP round through Kafka costs, with real compute: for each of --models, one job on "
                    + "Fashion-MNIST trained as `paramhub demo` trains it (barrier wait p50/p99/mean, rounds per second, "
                    + "start-up seconds, the aggregator's transactions per round, the bytes the brokers wrote per round "
                    + "to every topic, changelogs included) and the same job in this JVM; then the first "
                    + "--replay-clocks clocks of the MLP's job replayed into a fresh aggregator next to Kafka's own "
                    + "producer and an exactly-once pass-through Streams app with records of the same size. Writes "
                    + "DIR/report.json and two PNG plots."
        })
public final class RoundCostCommand implements Callable<Integer> {

    @Spec
    private CommandSpec command;

    @Option(names = "--out", required = true, description = "Directory for report.json and the plots.")
    private Path out;

    @Option(
            names = "--models",
            paramLabel = "M1,M2,...",
            defaultValue = RoundCostSettings.DEFAULT_MODELS,
            description = "The models to measure, in this order, on Fashion-MNIST, each trained as the demo trains "
                    + "it: softmax, mlp (784-256-128-10, Adam), or a shape such as mlp:64 or cnn "
                    + "(default: ${DEFAULT-VALUE}).")
    private String models;

    @Option(
            names = "--epochs",
            defaultValue = "" + RoundCostSettings.DEFAULT_EPOCHS,
            description = "Passes over the training set, the same for every model (default: ${DEFAULT-VALUE}, that "
                    + "is 468 rounds of batch 128 on all of Fashion-MNIST).")
    private int epochs;

    @Mixin
    private WorkloadOptions workload;

    @Option(
            names = "--shards",
            defaultValue = "" + RoundCostSettings.DEFAULT_SHARDS,
            description = "Parameter shards, as the demo: raised as the demo raises it for a large model, so the MLP "
                    + "gets 4 (default: ${DEFAULT-VALUE}).")
    private int shards;

    @Option(
            names = "--train-samples",
            description = "Train on the first N Fashion-MNIST training images (the whole test set scores them) "
                    + "(default: all 60,000).")
    private Integer trainSamples;

    @Option(
            names = "--replay-clocks",
            defaultValue = "" + RoundCostSettings.DEFAULT_REPLAY_CLOCKS,
            description = "How many of the replayed model's first clocks to replay into a fresh aggregator (all of "
                    + "its clocks when it has fewer); Kafka's limits are measured with as many records "
                    + "(default: ${DEFAULT-VALUE}).")
    private long replayClocks;

    @Mixin
    private ConnectionOptions clusterOptions;

    @Override
    public Integer call() throws Exception {
        RoundCostBench.run(settings(), clusterOptions.settings(), out, System.out);
        return 0;
    }

    /** The options, checked, with Fashion-MNIST loaded. */
    private RoundCostSettings settings() {
        try {
            return RoundCostSettings.of(
                    models,
                    trainSamples,
                    workload.workers(),
                    workload.batch(),
                    epochs,
                    workload.seed(),
                    shards,
                    replayClocks,
                    clusterOptions.topicPrefix());
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
    }
}
