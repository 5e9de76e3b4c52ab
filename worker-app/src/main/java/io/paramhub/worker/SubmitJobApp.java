package io.paramhub.worker;

import io.paramhub.avro.JobSpec;
import io.paramhub.launcher.AppCommandLine;
import io.paramhub.launcher.JobFile;
import io.paramhub.launcher.JobRecipeOptions;
import io.paramhub.launcher.JobSpecOptions;
import io.paramhub.launcher.KafkaOptions;
import io.paramhub.launcher.PluginOptions;
import io.paramhub.launcher.SettingException;
import io.paramhub.launcher.StreamsAppLauncher;
import io.paramhub.launcher.TopicCreationOptions;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.TrainTest;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.TopicProvisioner;
import io.paramhub.topology.TopicRetentions;
import io.paramhub.topology.client.JobSubmitter;
import io.paramhub.topology.jobs.ExternalModels;
import io.paramhub.topology.jobs.JobData;
import io.paramhub.topology.jobs.JobRecipe;
import io.paramhub.topology.jobs.JobSettings;
import io.paramhub.topology.jobs.JobSpecs;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * Submits one job: publishes its {@code JobSpec} to {@code jobs}, where the aggregator and the workers named
 * after it pick it up, creating ParamHub's topics first where they are missing. The job comes from the options, a
 * job file ({@link JobFile}: its keys are these options) or both, the options given beside a file overriding its
 * keys, and is built by {@link JobRecipe}, as {@code paramhub demo} builds its own. A job that trains from a topic
 * ({@code --data-topic}, {@link TopicJobOptions}) is resolved against the topic first: {@link TopicProbe} reads
 * its first records (and the registry) to learn what the options leave out. It is {@code paramhub jobs submit};
 * it also ships in the worker's jar ({@code java -cp paramhub-worker.jar io.paramhub.worker.SubmitJobApp}) for
 * stacks that run workers without the {@code paramhub} command.
 */
@Command(
        name = "paramhub-submit",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        version = "paramhub-submit 0.1.0",
        description = "Submits a ParamHub training job (a JobSpec on the jobs topic) and exits; the same command as "
                + "paramhub jobs submit. The job is described by options, by a job file (YAML or JSON; its keys are "
                + "these options without their dashes, see examples/jobs/) or both: options given beside a file "
                + "override its keys. Missing ParamHub topics are created first.")
public final class SubmitJobApp implements Callable<Integer> {

    private static final String DEFAULT_DATASET = "linear";

    /** Kafka settings assumed when nothing names them: none for this app, the local cluster for {@code paramhub}. */
    private final Map<String, String> clusterFallbacks;

    /** The worker jar's submitter: the cluster must be named. */
    public SubmitJobApp() {
        this(Map.of());
    }

    /** A submitter that assumes {@code clusterFallbacks} (Kafka settings by name) where nothing names them. */
    public SubmitJobApp(final Map<String, String> clusterFallbacks) {
        this.clusterFallbacks = Map.copyOf(clusterFallbacks);
    }

    @Spec
    private CommandSpec command;

    @Parameters(
            arity = "0..1",
            paramLabel = "JOB_FILE",
            description = "A job file (YAML or JSON), e.g. examples/jobs/mlp.yaml; options given beside it override "
                    + "its keys.")
    private Path jobFile;

    @Mixin
    private KafkaOptions kafka;

    @Mixin
    private PluginOptions plugins;

    @Option(names = "--job", description = "Job name, unique per run. Required.")
    private String job;

    @Option(names = "--workers", description = "Workers that share each batch. Required.")
    private Integer workers;

    @Option(
            names = "--model",
            description = "A built-in model: linear, softmax, mlp[:H1,H2,..[,dropout=R]] or cnn[:K,C1,C2,H[,..]] "
                    + "(docs/models.md), a plugin's, or external with --external-model (default: softmax for "
                    + "classes, linear for a regression).")
    private String model;

    @Option(
            names = "--external-model",
            paramLabel = "FILE",
            description = "A model the aggregator does not know, trained by workers that do (the Python worker, say): "
                    + "a JSON file with its tensors and version 0 (docs/protocol.md, \"External models\"). Implies "
                    + "--model external.")
    private Path externalModel;

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

    @Mixin
    private JobRecipeOptions recipe;

    @Mixin
    private TopicCreationOptions topicCreation;

    @Override
    public Integer call() {
        if (jobFile != null) {
            applyJobFile();
        }
        plugins.install();
        // what the options alone can tell is refused before Kafka is asked anything
        SettingException.requireOption(job, "--job");
        SettingException.requireOption(workers, "--workers");
        topicMode();
        final Properties settings = kafka.properties(Map.of(), clusterFallbacks);
        final JobSpec spec = spec(settings);
        final TopicCatalog topics = TopicCatalog.create(kafka.topicPrefix(), SerdeFactory.fromSettings(settings));
        createTopics(topics, settings);
        JobSubmitter.submit(topics.jobs(), ClientProperties.withoutRegistrySettings(settings), spec);
        command.commandLine()
                .getOut()
                .println("submitted job " + spec.getJob() + ": " + spec.getModel() + " on " + spec.getDataset()
                        + ", " + spec.getExpectedWorkers() + " workers, " + spec.getSyncMode() + ", "
                        + spec.getOptimizer() + " lr " + spec.getLearningRate() + " " + spec.getLearningRateSchedule()
                        + ", " + (spec.getEpochs() == 1 ? "1 epoch" : spec.getEpochs() + " epochs"));
        command.commandLine().getOut().flush();
        return 0;
    }

    /**
     * Sets every option the job file gives and the command line does not: the file's keys are parsed as these
     * options (so checked and converted the same), and an option given beside the file overrides its key.
     */
    void applyJobFile() {
        // named as this command, for the file's errors
        final CommandLine file = new CommandLine(new SubmitJobApp()).setCommandName(command.qualifiedName());
        final ParseResult fromFile =
                file.parseArgs(JobFile.arguments(jobFile, file.getCommandSpec()).toArray(String[]::new));
        final ParseResult given = command.commandLine().getParseResult();
        for (final OptionSpec option : fromFile.matchedOptions()) {
            if (!given.hasMatchedOption(option.longestName())) {
                command.findOption(option.longestName()).setValue(option.getValue());
            }
        }
    }

    /** The job the options describe, checked; a job from a topic is resolved against the topic first. */
    JobSpec spec(final Properties settings) {
        SettingException.requireOption(job, "--job");
        SettingException.requireOption(workers, "--workers");
        if (topicMode()) {
            final TopicProbe probe = new TopicProbe(
                    ClientProperties.withoutRegistrySettings(settings),
                    SchemaRegistryClients.fromConfig(
                            SerdeFactory.fromSettings(settings).config()),
                    TopicProbe.TIMEOUT);
            final TopicJobOptions.Resolved topic = resolve(probe.probe(topicJob.topic(), topicJob.fields()));
            topic.report().forEach(command.commandLine().getOut()::println);
            return JobSpecs.requireValid(spec(topic));
        }
        final String resolved = DataSources.resolve(
                dataset == null ? DEFAULT_DATASET : dataset, Path.of("").toAbsolutePath());
        return JobSpecs.requireValid(spec(resolved, DataSources.load(resolved)));
    }

    /** Creates ParamHub's missing topics, as the apps do when they start, unless told not to. */
    private void createTopics(final TopicCatalog topics, final Properties settings) {
        final TopicSetup setup = topicCreation.topicSetup(false);
        if (!setup.create()) {
            return;
        }
        try (Admin admin = Admin.create(StreamsAppLauncher.connection(settings))) {
            new TopicProvisioner(admin)
                    .ensure(
                            topics.layouts(
                                    setup.shardPartitions(), setup.otherPartitions(), TopicRetentions.from(settings)),
                            setup.replication());
        }
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
        // --epochs other than 1 is refused by the recipe, which builds every job from a topic with one pass
        return topicJob.resolve(probe, workers);
    }

    /** The job spec the options describe, for the data spec {@code resolved} and its training set {@code data}. */
    JobSpec spec(final String resolved, final TrainTest data) {
        return spec(JobData.ofFile(resolved, data.train()));
    }

    /** The job spec the options describe for the job from a topic {@code topic}: one pass, as long as it lasts. */
    JobSpec spec(final TopicJobOptions.Resolved topic) {
        if (externalModel == null && "linear".equals(model) && topic.outputs() > 1) {
            throw new SettingException(
                    "--model",
                    "--model linear has 1 output, and the job's labels make " + topic.outputs() + " classes: give "
                            + "--model softmax or mlp, or --task regression");
        }
        return spec(JobData.ofTopic(topic.spec().toString(), topic.inputs(), topic.outputs(), topic.bound()));
    }

    /** The job of these options on {@code data}, through the one job recipe. */
    private JobSpec spec(final JobData data) {
        try {
            final JobSettings chosen = settings(data);
            if (externalModel == null && !ExternalModels.KIND.equals(model)) {
                return JobRecipe.spec(chosen, data);
            }
            SettingException.requireOption(externalModel, "--external-model");
            final ExternalModelFile.ExternalModel external = ExternalModelFile.read(externalModel);
            return JobRecipe.spec(
                    chosen,
                    data,
                    JobSpec.newBuilder()
                            .setModel(ExternalModels.KIND)
                            .setInputs(data.inputs())
                            .setOutputs(data.outputs())
                            .setParameters(external.parameters())
                            .setTensors(external.tensors())
                            .setInitialParameters(external.initialParameters()));
        } catch (final SettingException e) {
            throw e;
        } catch (final IllegalArgumentException e) {
            throw new SettingException(option(e.getMessage()), e.getMessage());
        }
    }

    /** What these options chose, for {@link JobRecipe}; the model, when none is given, from the data. */
    private JobSettings settings(final JobData data) {
        return recipe.addTo(jobSpec.settings())
                .job(job)
                .workers(workers)
                .model(model != null ? model : data.outputs() == 1 ? "linear" : "softmax");
    }

    /** The option a recipe's message starts with ("--shards must be ..."), or "--job" when none does. */
    private static String option(final String message) {
        if (message != null && message.startsWith("--")) {
            final int end = message.replaceAll("[ :(]", " ").indexOf(' ');
            return end > 0 ? message.substring(0, end) : message;
        }
        return "--job";
    }

    public static void main(final String[] args) {
        System.exit(AppCommandLine.run(new SubmitJobApp(), args));
    }
}
