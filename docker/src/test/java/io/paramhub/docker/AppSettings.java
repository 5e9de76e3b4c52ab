package io.paramhub.docker;

import io.paramhub.aggregator.AggregatorApp;
import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.launcher.Settings;
import io.paramhub.launcher.SettingsProvider;
import io.paramhub.orchestrator.OrchestratorApp;
import io.paramhub.orchestrator.OrchestratorRunner;
import io.paramhub.schemas.registry.SchemaRegistryConfig;
import io.paramhub.worker.SubmitJobApp;
import io.paramhub.worker.WorkerApp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What each ParamHub app reads from its environment, derived from the apps' own code: the {@code PARAMHUB_*}
 * name of every option of its command line ({@link Settings#optionEnv}), the Kafka settings it takes as
 * {@code KAFKA_*} ({@link Settings#kafkaKey}), its HTTP port and its main class.
 */
record AppSettings(
        String name,
        String image,
        String mainClass,
        Supplier<Object> command,
        Set<String> kafkaKeys,
        int httpPort,
        Set<String> requiredEnv) {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");
    private static final List<String> STREAMS_CLIENT_PREFIXES = List.of(
            StreamsConfig.PRODUCER_PREFIX,
            StreamsConfig.CONSUMER_PREFIX,
            StreamsConfig.MAIN_CONSUMER_PREFIX,
            StreamsConfig.RESTORE_CONSUMER_PREFIX,
            StreamsConfig.GLOBAL_CONSUMER_PREFIX,
            StreamsConfig.ADMIN_CLIENT_PREFIX);

    static final AppSettings AGGREGATOR = new AppSettings(
            "aggregator",
            "paramhub/aggregator",
            AggregatorApp.class.getName(),
            AggregatorApp::new,
            streamsKeys(),
            AggregatorRunner.DEFAULT_HTTP_PORT,
            Set.of(kafkaEnv("bootstrap.servers"), kafkaEnv(SchemaRegistryConfig.SCHEMA_REGISTRY_URL)));
    static final AppSettings ORCHESTRATOR = new AppSettings(
            "orchestrator",
            "paramhub/orchestrator",
            OrchestratorApp.class.getName(),
            OrchestratorApp::new,
            streamsKeys(),
            OrchestratorRunner.DEFAULT_HTTP_PORT,
            Set.of(kafkaEnv("bootstrap.servers"), kafkaEnv(SchemaRegistryConfig.SCHEMA_REGISTRY_URL)));
    static final AppSettings WORKER = new AppSettings(
            "worker",
            "paramhub/worker",
            WorkerApp.class.getName(),
            WorkerApp::new,
            clientKeys(),
            WorkerApp.DEFAULT_HTTP_PORT,
            Set.of(
                    kafkaEnv("bootstrap.servers"),
                    kafkaEnv(SchemaRegistryConfig.SCHEMA_REGISTRY_URL),
                    Settings.optionEnv("--job"),
                    Settings.optionEnv("--workers"),
                    Settings.optionEnv("--index")));
    static final AppSettings SUBMIT = new AppSettings(
            "submit",
            "paramhub/worker",
            SubmitJobApp.class.getName(),
            SubmitJobApp::new,
            clientKeys(),
            -1,
            Set.of(
                    kafkaEnv("bootstrap.servers"),
                    kafkaEnv(SchemaRegistryConfig.SCHEMA_REGISTRY_URL),
                    Settings.optionEnv("--job"),
                    Settings.optionEnv("--workers")));

    static final List<AppSettings> APPS = List.of(AGGREGATOR, ORCHESTRATOR, WORKER, SUBMIT);

    /** The app a container runs: by its image, and by a command naming another main class in it. */
    static AppSettings forContainer(final String image, final List<String> command) {
        final String repository = image.contains(":") ? image.substring(0, image.lastIndexOf(':')) : image;
        for (final AppSettings app : APPS) {
            if (app.image.equals(repository) && command != null && command.contains(app.mainClass)) {
                return app;
            }
        }
        for (final AppSettings app : APPS) {
            if (app.image.equals(repository) && app != SUBMIT) {
                return app;
            }
        }
        return null;
    }

    /** The {@code PARAMHUB_*} names this app reads: one per option of its command line. */
    Set<String> optionEnv() {
        final Set<String> names = new TreeSet<>();
        for (final OptionSpec option :
                new CommandLine(command.get()).getCommandSpec().options()) {
            if (SettingsProvider.takesSetting(option)) {
                names.add(Settings.optionEnv(option.longestName()));
            }
        }
        return names;
    }

    /** What is wrong with giving this app {@code env}; empty when every name is one it reads. */
    List<String> problems(final String where, final Map<String, String> env) {
        final List<String> problems = new ArrayList<>();
        final Set<String> referenced = new HashSet<>();
        env.values().forEach(value -> {
            final Matcher matcher = REFERENCE.matcher(value == null ? "" : value);
            while (matcher.find()) {
                referenced.add(matcher.group(1));
            }
        });
        final Set<String> options = optionEnv();
        env.forEach((name, value) -> {
            if (name.startsWith(Settings.KAFKA_ENV_PREFIX)) {
                final String key = Settings.kafkaKey(name);
                if (key == null || !takesKafkaSetting(key)) {
                    problems.add(where + ": " + name + " is not a Kafka setting the " + this.name + " takes");
                }
            } else if (name.startsWith(Settings.PARAMHUB_ENV_PREFIX)) {
                if (!options.contains(name)) {
                    problems.add(where + ": " + name + " is not an option of the " + this.name + " (it reads " + options
                            + ")");
                }
            } else if (!referenced.contains(name)) {
                problems.add(where + ": " + name + " is read by no ParamHub app and used by no other variable");
            }
        });
        for (final String required : requiredEnv) {
            if (!env.containsKey(required)) {
                problems.add(where + ": the " + this.name + " needs " + required);
            }
        }
        return problems;
    }

    boolean takesKafkaSetting(final String key) {
        if (kafkaKeys.contains(key)) {
            return true;
        }
        if (kafkaKeys.contains(StreamsConfig.APPLICATION_ID_CONFIG)) {
            for (final String prefix : STREAMS_CLIENT_PREFIXES) {
                if (key.startsWith(prefix) && clientKeys().contains(key.substring(prefix.length()))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String kafkaEnv(final String key) {
        return Settings.kafkaEnv(key);
    }

    private static Set<String> registryKeys() {
        return Set.of(
                SchemaRegistryConfig.SCHEMA_REGISTRY_URL,
                SchemaRegistryConfig.AUTO_REGISTER_SCHEMAS,
                SchemaRegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE,
                SchemaRegistryConfig.BASIC_AUTH_USER_INFO);
    }

    private static Set<String> clientKeys() {
        final Set<String> keys = new HashSet<>(ProducerConfig.configNames());
        keys.addAll(ConsumerConfig.configNames());
        keys.addAll(registryKeys());
        return keys;
    }

    private static Set<String> streamsKeys() {
        final Set<String> keys = new HashSet<>(StreamsConfig.configDef().names());
        keys.addAll(clientKeys());
        keys.addAll(AdminClientConfig.configNames());
        return keys;
    }
}
