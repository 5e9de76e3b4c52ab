package io.paramhub.worker;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.launcher.AppCommandLine;
import io.paramhub.launcher.KafkaOptions;
import io.paramhub.launcher.SettingException;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Model;
import io.paramhub.ml.Models;
import io.paramhub.ml.TrainTest;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.JobSubmitter;
import io.paramhub.topology.jobs.JobSpecs;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Submits one job: publishes its {@code JobSpec} to {@code jobs}, where the aggregator and the workers named
 * after it pick it up. Ships in the worker's jar ({@code java -cp paramhub-worker.jar
 * io.paramhub.worker.SubmitJobApp}) for stacks that run workers without the {@code paramhub} command.
 */
@Command(name = "paramhub-submit", mixinStandardHelpOptions = true, sortOptions = false,
    version = "paramhub-submit 0.1.0",
    description = "Submits a ParamHub training job (a JobSpec on the jobs topic) and exits.")
public final class SubmitJobApp implements Callable<Integer> {

    @Mixin
    private KafkaOptions kafka;

    @Option(names = "--job", description = "Job name, unique per run. Required.")
    private String job;

    @Option(names = "--workers", description = "Workers that share each batch. Required.")
    private Integer workers;

    @Option(names = "--model", defaultValue = "linear",
        description = "linear or softmax (default: ${DEFAULT-VALUE}).")
    private String model;

    @Option(names = "--dataset", defaultValue = "linear",
        description = "fashion-mnist[:DIR] or linear[:n=..,d=..,noise=..,seed=..]; every worker must be able to "
            + "load it (default: ${DEFAULT-VALUE}).")
    private String dataset;

    @Option(names = "--epochs", defaultValue = "3", description = "Passes over the data (default: ${DEFAULT-VALUE}).")
    private int epochs;

    @Option(names = "--batch", defaultValue = "128", description = "Global batch (default: ${DEFAULT-VALUE}).")
    private int batch;

    @Option(names = "--shards", defaultValue = "4", description = "Parameter shards, at least; raised so that "
        + "no shard carries more than 256 KiB (default: ${DEFAULT-VALUE}).")
    private int shards;

    @Option(names = "--sync", defaultValue = "bsp", description = "bsp, ssp or asp (default: ${DEFAULT-VALUE}).")
    private String sync;

    @Option(names = "--staleness", defaultValue = "3", description = "SSP bound (default: ${DEFAULT-VALUE}).")
    private int staleness;

    @Option(names = "--lr", defaultValue = "0.01", description = "Learning rate (default: ${DEFAULT-VALUE}).")
    private double learningRate;

    @Option(names = "--momentum", defaultValue = "0.9", description = "SGD momentum (default: ${DEFAULT-VALUE}).")
    private double momentum;

    @Option(names = "--seed", defaultValue = "42", description = "Seed (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--session-timeout-ms", defaultValue = "10000",
        description = "A worker silent this long leaves the live set (default: ${DEFAULT-VALUE}).")
    private long sessionTimeoutMs;

    @Override
    public Integer call() {
        SettingException.requireOption(job, "--job");
        SettingException.requireOption(workers, "--workers");
        final Properties props = kafka.properties(Map.of());
        final String registryUrl = props.getProperty(StreamsProperties.SCHEMA_REGISTRY_URL);
        props.remove(StreamsProperties.SCHEMA_REGISTRY_URL);
        final JobSpec spec = JobSpecs.requireValid(spec(DataSources.load(dataset)));
        JobSubmitter.submit(TopicCatalog.create(kafka.topicPrefix(), SerdeFactory.forRegistry(registryUrl)).jobs(),
            props, spec);
        System.out.println("submitted job " + spec.getJob() + ": " + spec.getModel() + " on " + spec.getDataset()
            + ", " + spec.getExpectedWorkers() + " workers, " + spec.getSyncMode() + ", " + spec.getEpochs()
            + " epochs");
        return 0;
    }

    private JobSpec spec(final TrainTest data) {
        final Model kind = Models.forData(model, data.train());
        final SyncMode mode;
        try {
            mode = SyncMode.valueOf(sync.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new SettingException("--sync", "--sync must be bsp, ssp or asp, not " + sync);
        }
        return JobSpecs.forModel(kind, shards)
            .setJob(job)
            .setDataset(dataset)
            .setSyncMode(mode)
            .setStaleness(mode == SyncMode.SSP ? staleness : 0)
            .setSessionTimeoutMs(sessionTimeoutMs)
            .setOptimizer(OptimizerKind.SGD)
            .setLearningRate(learningRate)
            .setMomentum(momentum)
            .setGlobalBatch(batch)
            .setExpectedWorkers(workers)
            .setEpochs(epochs)
            .setSeed(seed)
            .setCreatedAt(Instant.now())
            .build();
    }

    public static void main(final String[] args) {
        System.exit(AppCommandLine.run(new SubmitJobApp(), args));
    }
}
