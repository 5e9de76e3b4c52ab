package io.paramhub.worker;

import io.paramhub.avro.GradientEncoding;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.launcher.AppCommandLine;
import io.paramhub.launcher.JobSpecOptions;
import io.paramhub.launcher.KafkaOptions;
import io.paramhub.launcher.SettingException;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.LinearRegression;
import io.paramhub.ml.Models;
import io.paramhub.ml.ShardSizing;
import io.paramhub.ml.TrainTest;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.JobSubmitter;
import io.paramhub.topology.jobs.ExternalModels;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.TrainingRecipe;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Submits one job: publishes its {@code JobSpec} to {@code jobs}, where the aggregator and the workers named
 * after it pick it up. A job that trains from a topic ({@code --data-topic}, {@link TopicJobOptions}) is resolved
 * against the topic first: {@link TopicProbe} reads its first records (and the registry) to learn what the options
 * leave out. Ships in the worker's jar ({@code java -cp paramhub-worker.jar io.paramhub.worker.SubmitJobApp}) for
 * stacks that run workers without the {@code paramhub} command.
 */
@Command(
        name = "paramhub-submit",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        version = "paramhub-submit 0.1.0",
        description = "Submits a ParamHub training job (a JobSpec on the jobs topic) and exits.")
public final class SubmitJobApp implements Callable<Integer> {

    private static final String DEFAULT_DATASET = "linear";

    @Spec
    private CommandSpec command;

    @Mixin
    private KafkaOptions kafka;

    @Option(names = "--job", description = "Job name, unique per run. Required.")
    private String job;

    @Option(names = "--workers", description = "Workers that share each batch. Required.")
    private Integer workers;

    @Option(
            names = "--model",
            defaultValue = "linear",
            description = "A built-in model: linear, softmax, mlp[:H1,H2,..] or cnn[:..] (docs/models.md), or external "
                    + "with --external-model (default: ${DEFAULT-VALUE}).")
    private String model;

    @Option(
            names = "--external-model",
            paramLabel = "FILE",
            description = "A model the aggregator does not know, trained by workers that do (the Python worker, say): "
                    + "a JSON file with its tensors and version 0 (docs/protocol.md, \"External models\"). Implies "
                    + "--model external.")
    private Path externalModel;

    @Option(
            names = "--optimizer",
            defaultValue = "sgd",
            description = "sgd (with --momentum) or adam (beta1 0.9, beta2 0.999, epsilon 1e-8) (default: "
                    + "${DEFAULT-VALUE}).")
    private String optimizer;

    @Option(
            names = "--lr-schedule",
            defaultValue = "constant",
            description = "constant, or cosine: the rate falls as (1 + cos(pi c / T)) / 2 to 0 over the job's T = "
                    + "epochs x floor(training samples / batch) clocks; from a topic, T = floor(E / batch) for the E "
                    + "examples of --max-examples or, with --until-end, before the end offsets (the fewer of the "
                    + "two); refused for a job from a topic without either, which has no end (default: "
                    + "${DEFAULT-VALUE}).")
    private String schedule;

    @Option(
            names = "--dataset",
            description = "fashion-mnist[:DIR], linear[:n=..,d=..,noise=..,seed=..], csv:FILE,.., idx:IMAGES,LABELS,.. "
                    + "or avro:FILE,features=.. (docs/data.md); a relative path is made absolute here; every worker "
                    + "must be able to load it, under its data roots. Not with --data-topic (default: "
                    + DEFAULT_DATASET + ").")
    private String dataset;

    @Mixin
    private TopicJobOptions topicJob;

    @Mixin
    private JobSpecOptions jobSpec;

    @Option(names = "--sync", defaultValue = "bsp", description = "bsp, ssp or asp (default: ${DEFAULT-VALUE}).")
    private String sync;

    @Option(
            names = "--session-timeout-ms",
            defaultValue = "10000",
            description = "A worker silent this long leaves the live set (default: ${DEFAULT-VALUE}).")
    private long sessionTimeoutMs;

    @Option(
            names = "--gradient-encoding",
            defaultValue = "float32",
            description = "How workers ship gradients: float32 (exact) or bfloat16 (half the bytes, rounded with "
                    + "error feedback) (default: ${DEFAULT-VALUE}).")
    private String gradientEncoding;

    @Option(
            names = "--pipeline-depth",
            defaultValue = "0",
            description = "BSP only: compute clock c on model version c - D (pipelined BSP), at most "
                    + JobSpecs.MAX_PIPELINE_DEPTH + " (default: ${DEFAULT-VALUE}, plain BSP).")
    private int pipelineDepth;

    @Override
    public Integer call() {
        SettingException.requireOption(job, "--job");
        SettingException.requireOption(workers, "--workers");
        final boolean fromTopic = topicMode();
        final Properties settings = kafka.properties(Map.of());
        final Properties props = ClientProperties.withoutRegistrySettings(settings);
        final JobSpec spec;
        if (fromTopic) {
            final TopicProbe probe = new TopicProbe(
                    props,
                    SchemaRegistryClients.fromConfig(
                            SerdeFactory.fromSettings(settings).config()),
                    TopicProbe.TIMEOUT);
            final TopicJobOptions.Resolved topic = resolve(probe.probe(topicJob.topic(), topicJob.fields()));
            topic.report().forEach(command.commandLine().getOut()::println);
            spec = JobSpecs.requireValid(spec(topic));
        } else {
            final String resolved = DataSources.resolve(
                    dataset == null ? DEFAULT_DATASET : dataset, Path.of("").toAbsolutePath());
            spec = JobSpecs.requireValid(spec(resolved, DataSources.load(resolved)));
        }
        JobSubmitter.submit(
                TopicCatalog.create(kafka.topicPrefix(), SerdeFactory.fromSettings(settings))
                        .jobs(),
                props,
                spec);
        command.commandLine()
                .getOut()
                .println("submitted job " + spec.getJob() + ": " + spec.getModel() + " on " + spec.getDataset()
                        + ", " + spec.getExpectedWorkers() + " workers, " + spec.getSyncMode() + ", "
                        + (spec.getEpochs() == 1 ? "1 epoch" : spec.getEpochs() + " epochs"));
        command.commandLine().getOut().flush();
        return 0;
    }

    /** Whether the job trains from a topic; fails when both a topic and a data set are given. */
    private boolean topicMode() {
        if (!topicJob.given()) {
            topicJob.requireNoneWithoutTopic();
            return false;
        }
        if (dataset != null) {
            throw new SettingException(
                    "--dataset",
                    "--data-topic and --dataset exclude each other: a job trains from a topic or a data set");
        }
        return true;
    }

    /** The topic job the options describe, given what {@code probe} saw of the topic. */
    TopicJobOptions.Resolved resolve(final TopicProbe.Result probe) {
        SettingException.requireOption(workers, "--workers");
        if (!topicMode()) {
            throw new SettingException("--data-topic", "--data-topic is not given");
        }
        if (jobSpec.epochs() != null && jobSpec.epochs() != 1) {
            throw new SettingException(
                    "--epochs", "a job from a topic makes one pass over it: --epochs does not apply");
        }
        return topicJob.resolve(probe, workers);
    }

    /** The job spec the options describe, for the data spec {@code resolved} and its training set {@code data}. */
    JobSpec spec(final String resolved, final TrainTest data) {
        final int epochs = or(jobSpec.epochs(), JobSpecOptions.DEFAULT_EPOCHS);
        final Dataset train = data.train();
        return spec(
                TrainingRecipe.withSchedule(
                        modelFields(train.features(), train.isClassification() ? train.classes() : 1),
                        scheduleKind(),
                        epochs,
                        train.size(),
                        jobSpec.batch()),
                resolved,
                epochs);
    }

    /** The job spec the options describe for the job from a topic {@code topic}: one pass, as long as it lasts. */
    JobSpec spec(final TopicJobOptions.Resolved topic) {
        final LearningRateScheduleKind kind = scheduleKind();
        if (kind == LearningRateScheduleKind.COSINE && topic.bound() < 0) {
            throw new SettingException(
                    "--lr-schedule",
                    "--lr-schedule cosine decays the rate to 0 by the end of the job, and a job from a topic without "
                            + "--max-examples or --until-end has no end: give one of them, or --lr-schedule constant");
        }
        if (externalModel == null
                && LinearRegression.KIND.equals(model.trim().toLowerCase(Locale.ROOT))
                && topic.outputs() > 1) {
            throw new SettingException(
                    "--model",
                    "--model linear has 1 output, and the job's labels make " + topic.outputs() + " classes: give "
                            + "--model softmax or mlp, or --task regression");
        }
        return spec(
                modelFields(topic.inputs(), topic.outputs())
                        .setLearningRateSchedule(kind)
                        .setDecayClocks(
                                kind == LearningRateScheduleKind.COSINE
                                        ? Math.max(1, topic.bound() / jobSpec.batch())
                                        : 0),
                topic.spec().toString(),
                1);
    }

    /** The job of {@code model} (its model and schedule set) on {@code dataset}, with the other options. */
    private JobSpec spec(final JobSpec.Builder model, final String dataset, final int epochs) {
        final SyncMode mode;
        try {
            mode = SyncMode.valueOf(sync.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new SettingException("--sync", "--sync must be bsp, ssp or asp, not " + sync);
        }
        return model.setJob(job)
                .setDataset(dataset)
                .setSyncMode(mode)
                .setStaleness(mode == SyncMode.SSP ? jobSpec.staleness() : 0)
                .setSessionTimeoutMs(sessionTimeoutMs)
                .setGradientEncoding(encoding())
                .setPipelineDepth(pipelineDepth)
                .setOptimizer(optimizerKind())
                .setLearningRate(or(jobSpec.learningRate(), JobSpecOptions.DEFAULT_LEARNING_RATE))
                .setMomentum(or(jobSpec.momentum(), JobSpecOptions.DEFAULT_MOMENTUM))
                .setGlobalBatch(jobSpec.batch())
                .setExpectedWorkers(workers)
                .setEpochs(epochs)
                .setSeed(jobSpec.seed())
                .setCreatedAt(Instant.now())
                .build();
    }

    /** The builder with the model's fields: a built-in model's, or the external model's file. */
    private JobSpec.Builder modelFields(final int inputs, final int outputs) {
        final int shards = or(jobSpec.shards(), JobSpecOptions.DEFAULT_SHARDS);
        if (externalModel == null && !ExternalModels.KIND.equals(model)) {
            return JobSpecs.forModel(Models.create(model, inputs, outputs), shards);
        }
        SettingException.requireOption(externalModel, "--external-model");
        final ExternalModelFile.ExternalModel external = ExternalModelFile.read(externalModel);
        return JobSpec.newBuilder()
                .setModel(ExternalModels.KIND)
                .setInputs(inputs)
                .setOutputs(outputs)
                .setParameters(external.parameters())
                .setShards(ShardSizing.shards(external.parameters(), shards))
                .setTensors(external.tensors())
                .setInitialParameters(external.initialParameters());
    }

    private OptimizerKind optimizerKind() {
        try {
            return OptimizerKind.valueOf(optimizer.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new SettingException("--optimizer", "--optimizer must be sgd or adam, not " + optimizer);
        }
    }

    private LearningRateScheduleKind scheduleKind() {
        try {
            return LearningRateScheduleKind.valueOf(schedule.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new SettingException("--lr-schedule", "--lr-schedule must be constant or cosine, not " + schedule);
        }
    }

    private static <T> T or(final T given, final T otherwise) {
        return given != null ? given : otherwise;
    }

    public static void main(final String[] args) {
        System.exit(AppCommandLine.run(new SubmitJobApp(), args));
    }

    private GradientEncoding encoding() {
        try {
            return JobSpecs.gradientEncoding(gradientEncoding);
        } catch (final IllegalArgumentException e) {
            throw new SettingException("--gradient-encoding", "--" + e.getMessage());
        }
    }
}
