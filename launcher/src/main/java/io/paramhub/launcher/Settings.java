package io.paramhub.launcher;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * How a ParamHub app's settings are layered, as pure functions of what they are given. Lowest first:
 * <ol>
 *   <li>defaults: ParamHub's (Kafka Streams defaults, {@code StreamsProperties}; option defaults shown by
 *   {@code --help});</li>
 *   <li>the properties file named by {@code --config} (or {@code PARAMHUB_CONFIG}): Kafka client and Streams
 *   settings under their own names ({@code bootstrap.servers}, {@code schema.registry.url}, ...), and
 *   ParamHub's own options as {@code paramhub.<option words>} ({@code paramhub.http.port} for
 *   {@code --http-port});</li>
 *   <li>the environment: {@code KAFKA_*} for Kafka settings, mapped as the {@code apache/kafka} image and
 *   streams-bootstrap do ({@link #kafkaKey}: {@code KAFKA_BOOTSTRAP_SERVERS} → {@code bootstrap.servers});
 *   {@code PARAMHUB_*} for ParamHub's own options ({@link #optionEnv}: {@code PARAMHUB_HTTP_PORT} for
 *   {@code --http-port});</li>
 *   <li>the command line: {@code -D key=value}, then the options ({@code --bootstrap-servers} is
 *   {@code bootstrap.servers}, {@code --registry-url} is {@code schema.registry.url}, ...).</li>
 * </ol>
 */
public final class Settings {

    /** Prefix of Kafka settings in the environment. */
    public static final String KAFKA_ENV_PREFIX = "KAFKA_";
    /** Prefix of ParamHub's own settings in the environment. */
    public static final String PARAMHUB_ENV_PREFIX = "PARAMHUB_";
    /** Prefix of ParamHub's own settings in the properties file. */
    public static final String PARAMHUB_KEY_PREFIX = "paramhub.";

    /**
     * {@code KAFKA_*} variables that Kafka's own scripts and images read and that are not settings
     * ({@code KAFKA_HEAP_OPTS}, ...): never mapped.
     */
    public static final Set<String> KAFKA_ENV_NOT_SETTINGS = Set.of(
            "KAFKA_HEAP_OPTS",
            "KAFKA_OPTS",
            "KAFKA_JVM_PERFORMANCE_OPTS",
            "KAFKA_LOG4J_OPTS",
            "KAFKA_JMX_OPTS",
            "KAFKA_GC_LOG_OPTS",
            "KAFKA_DEBUG",
            "KAFKA_VERSION",
            "KAFKA_HOME");

    private Settings() {}

    /**
     * The Kafka setting an environment variable names, or null when it names none: strip {@code KAFKA_},
     * lower-case, {@code ___} → {@code -}, {@code __} → {@code _}, {@code _} → {@code .} (the
     * {@code apache/kafka} image's rule; without double or triple underscores it is streams-bootstrap's).
     */
    public static String kafkaKey(final String envName) {
        if (!envName.startsWith(KAFKA_ENV_PREFIX)
                || envName.length() == KAFKA_ENV_PREFIX.length()
                || KAFKA_ENV_NOT_SETTINGS.contains(envName)) {
            return null;
        }
        return envName.substring(KAFKA_ENV_PREFIX.length())
                .toLowerCase(Locale.ROOT)
                .replace("___", "\u0000")
                .replace("__", "\u0001")
                .replace('_', '.')
                .replace('\u0000', '-')
                .replace('\u0001', '_');
    }

    /** The environment variable of a Kafka setting: the inverse of {@link #kafkaKey}. */
    public static String kafkaEnv(final String key) {
        return KAFKA_ENV_PREFIX
                + key.replace("_", "__").replace("-", "___").replace('.', '_').toUpperCase(Locale.ROOT);
    }

    /** The environment variable of one of ParamHub's options: {@code --http-port} → {@code PARAMHUB_HTTP_PORT}. */
    public static String optionEnv(final String optionName) {
        return PARAMHUB_ENV_PREFIX + words(optionName).replace('-', '_').toUpperCase(Locale.ROOT);
    }

    /** The properties-file key of one of ParamHub's options: {@code --http-port} → {@code paramhub.http.port}. */
    public static String optionKey(final String optionName) {
        return PARAMHUB_KEY_PREFIX + words(optionName).replace('-', '.').toLowerCase(Locale.ROOT);
    }

    /** An option's name without dashes, and without {@code no-} when it is negatable ({@code --no-x} sets x). */
    private static String words(final String optionName) {
        String name = optionName.replaceFirst("^-+", "");
        if (name.startsWith("no-")) {
            name = name.substring(3);
        }
        return name;
    }

    /**
     * The Kafka settings, layered as the class comment says: {@code file} (less its {@code paramhub.*} option
     * keys in {@code optionKeys}), then {@code KAFKA_*} of {@code env}, then {@code commandLine} ({@code -D}),
     * then {@code options} (the options that stand for Kafka settings, by setting name; null values are
     * options not given).
     */
    public static Properties kafka(
            final Properties file,
            final Map<String, String> env,
            final Map<String, String> commandLine,
            final Map<String, String> options,
            final Set<String> optionKeys) {
        final Properties props = new Properties();
        file.forEach((key, value) -> {
            if (!optionKeys.contains(key.toString())) {
                props.put(key.toString(), value.toString());
            }
        });
        new TreeMap<>(env).forEach((name, value) -> {
            final String key = kafkaKey(name);
            if (key != null) {
                props.put(key, value);
            }
        });
        props.putAll(commandLine);
        options.forEach((key, value) -> {
            if (value != null) {
                props.put(key, value);
            }
        });
        return props;
    }

    /**
     * The value of one of ParamHub's options below the command line, or null: {@code PARAMHUB_*} in
     * {@code env}, else {@code paramhub.*} in {@code file}.
     */
    public static String option(final String optionName, final Map<String, String> env, final Properties file) {
        final String fromEnv = env.get(optionEnv(optionName));
        if (fromEnv != null) {
            return fromEnv;
        }
        return file.getProperty(optionKey(optionName));
    }
}
