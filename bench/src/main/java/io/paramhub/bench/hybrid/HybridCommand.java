package io.paramhub.bench.hybrid;

import io.paramhub.bench.PolicyBenchCommand;
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

/**
 * {@code paramhub bench hybrid}: the same BSP job data-parallel, then as replicas of pipeline stages, with
 * emulated compute ({@link HybridBench}).
 */
@Command(
        name = HybridBenchSettings.SCENARIO,
        header = "Data-parallel against hybrid data and model parallel training, with emulated compute.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Compares data-parallel and hybrid data and model parallel training: the same BSP job (--model on the "
                    + "first --train-samples Fashion-MNIST images) trained by --workers data-parallel workers, then by "
                    + "--workers / --stages replicas of --stages pipeline stages, with emulated compute (--sample-cost-us "
                    + "a sample; a stage worker pays its stage's share of the model's multiply-adds).",
            "Writes DIR/report.json with, for each run, rounds per second, compute, barrier and stage waits, the bytes "
                    + "a round of gradients, activations and their gradients, and model reads, the parameters each "
                    + "worker holds and the test accuracy, and prints which run moves fewer bytes a round for each "
                    + "budget and why."
        })
public final class HybridCommand implements Callable<Integer> {

    @Spec
    private CommandSpec command;

    @Option(names = "--out", required = true, description = "Directory for report.json.")
    private Path out;

    @Option(
            names = "--model",
            defaultValue = HybridBenchSettings.DEFAULT_MODEL,
            description = "The model both runs train, mlp or cnn (or a shape such as mlp:64) (default: "
                    + "${DEFAULT-VALUE}).")
    private String model;

    @Option(
            names = "--train-samples",
            defaultValue = "" + HybridBenchSettings.DEFAULT_TRAIN_SAMPLES,
            description = "Train on the first N Fashion-MNIST training images (the whole test set scores them) "
                    + "(default: ${DEFAULT-VALUE}).")
    private int trainSamples;

    @Option(
            names = "--epochs",
            defaultValue = "" + HybridBenchSettings.DEFAULT_EPOCHS,
            description = "Passes over the training set, the same for both runs (default: ${DEFAULT-VALUE}).")
    private int epochs;

    @Mixin
    private WorkloadOptions workload;

    @Option(
            names = "--stages",
            defaultValue = "" + HybridBenchSettings.DEFAULT_STAGES,
            description = "Pipeline stages of each replica in the hybrid run; --workers must be a multiple of it "
                    + "(default: ${DEFAULT-VALUE}).")
    private int stages;

    @Option(
            names = "--micro-batches",
            defaultValue = "" + HybridBenchSettings.DEFAULT_MICRO_BATCHES,
            description = "At most how many micro-batches a replica cuts its share of each batch into, pipelined "
                    + "through the stages (default: ${DEFAULT-VALUE}).")
    private int microBatches;

    @Option(
            names = "--shards",
            description = "Parameter shards, the same for both runs (default: what the cut needs, e.g. 10 for the cnn "
                    + "in 2 stages).")
    private Integer shards;

    @Option(
            names = "--sample-cost-us",
            defaultValue = "" + PolicyBenchCommand.DEFAULT_SAMPLE_COST_US,
            description = "Emulated compute cost of one sample on one thread, in microseconds; a stage worker pays "
                    + "its stage's share of the model's multiply-adds (default: ${DEFAULT-VALUE}).")
    private long sampleCostMicros;

    @Mixin
    private ConnectionOptions clusterOptions;

    @Override
    public Integer call() throws Exception {
        HybridBench.run(settings(), clusterOptions.settings(), out, System.out);
        return 0;
    }

    /** The options, checked, with Fashion-MNIST loaded. */
    private HybridBenchSettings settings() {
        try {
            return HybridBenchSettings.of(
                    model,
                    trainSamples,
                    workload.workers(),
                    stages,
                    microBatches,
                    workload.batch(),
                    epochs,
                    workload.seed(),
                    shards,
                    sampleCostMicros,
                    clusterOptions.topicPrefix());
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
    }
}
