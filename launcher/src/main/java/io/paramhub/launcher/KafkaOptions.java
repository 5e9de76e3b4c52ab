package io.paramhub.launcher;

import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.StreamsProperties;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options every ParamHub app shares (a picocli mixin): where Kafka and the schema registry are and the
 * topic prefix ({@link ClusterOptions}), the {@code --config} file and {@code -D} settings. {@link #properties}
 * layers them as {@link Settings} says.
 */
public final class KafkaOptions {

    /**
     * Options that stand for a Kafka setting, by option name: set them on the command line, as the setting in
     * the {@code --config} file, or as its {@code KAFKA_*} variable ({@code KAFKA_BOOTSTRAP_SERVERS}).
     */
    public static final Map<String, String> SETTING_OPTIONS = Map.of(
            "--bootstrap-servers", CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
            "--registry-url", StreamsProperties.SCHEMA_REGISTRY_URL,
            "--application-id", StreamsConfig.APPLICATION_ID_CONFIG,
            "--state-dir", StreamsConfig.STATE_DIR_CONFIG);

    @Spec(Spec.Target.MIXEE)
    private CommandSpec mixee;

    @Mixin
    private ClusterOptions cluster;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Properties file: Kafka client and Streams settings under their own names, ParamHub's "
                    + "options as paramhub.<option words> (paramhub.http.port). Env PARAMHUB_CONFIG.")
    private Path configFile;

    @Option(
            names = "-D",
            paramLabel = "KEY=VALUE",
            description = "A Kafka client or Streams setting (repeatable); wins over the file and KAFKA_* variables.")
    private Map<String, String> overrides = new HashMap<>();

    /**
     * The Kafka settings: the file, {@code KAFKA_*}, {@code -D}, then these options and {@code settingOptions}
     * (more options that stand for Kafka settings, by setting name; null = not given). Fails naming
     * {@code bootstrap.servers} or {@code schema.registry.url} when either is missing.
     */
    public Properties properties(final Map<String, String> settingOptions) {
        return properties(settingOptions, Map.of());
    }

    /**
     * As {@link #properties(Map)}, with {@code fallbacks} (Kafka settings by name) below every layer: what a command
     * assumes when nothing names a setting, such as the cluster of {@code paramhub up}.
     */
    public Properties properties(final Map<String, String> settingOptions, final Map<String, String> fallbacks) {
        final SettingsProvider provider = provider();
        final Map<String, String> options = new LinkedHashMap<>();
        options.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        options.put(StreamsProperties.SCHEMA_REGISTRY_URL, cluster.registryUrl());
        options.putAll(settingOptions);
        final Properties props = Settings.kafka(
                provider.file(), provider.env(), overrides, options, SettingsProvider.optionKeys(mixee.options()));
        fallbacks.forEach(props::putIfAbsent);
        require(props, "--bootstrap-servers", CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        require(props, "--registry-url", StreamsProperties.SCHEMA_REGISTRY_URL);
        return props;
    }

    public String topicPrefix() {
        return cluster.topicPrefix();
    }

    /** The environment and file this command was given, or none when run without {@link AppCommandLine}. */
    public SettingsProvider provider() {
        final IDefaultValueProvider provider = mixee == null ? null : mixee.defaultValueProvider();
        return provider instanceof SettingsProvider settings ? settings : SettingsProvider.none();
    }

    /**
     * Fails with Kafka's {@code ConfigException}, naming the setting, when {@code props} would not make a
     * ParamHub producer and consumer (a malformed number, an unknown enum value, ...).
     */
    public static void validateClientSettings(final Properties props) {
        final Properties producer = ClientProperties.producer(props);
        producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        new ProducerConfig(producer);
        final Properties consumer = ClientProperties.assignedConsumer(props);
        consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        new ConsumerConfig(consumer);
    }

    /** Fails naming the setting and each place it can be given when {@code key} has no value. */
    public static void require(final Properties props, final String option, final String key) {
        final Object value = props.get(key);
        if (value == null || value.toString().isBlank()) {
            throw new SettingException(
                    key,
                    "missing setting " + key + ": give " + option + ", " + Settings.kafkaEnv(key) + " or " + key
                            + " in the --config file");
        }
    }
}
