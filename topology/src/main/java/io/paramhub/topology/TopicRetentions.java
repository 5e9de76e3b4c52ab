package io.paramhub.topology;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * The retention of each {@code delete} topic ParamHub creates, by role (its name without the prefix):
 * ParamHub's defaults, each overridable with {@code paramhub.topic.<role>.retention.ms} and
 * {@code paramhub.topic.<role>.retention.bytes} among the app's Kafka settings (the {@code --config} file,
 * {@code -D}, or {@code KAFKA_PARAMHUB_TOPIC_<ROLE>_RETENTION_MS}).
 *
 * <p>Defaults: {@code gradients} 24 h and 1 GiB per partition (a restarted shard reads back the gradients
 * since its last snapshot, at most {@code paramhub.aggregator.snapshot.clocks} clocks old, and from the
 * offset its group committed); {@code telemetry} and {@code server-telemetry} 3 days, 256 MiB; {@code dead-letters},
 * {@code shard-membership} and {@code shard-commands} 7 days, 256 MiB; {@code activations} and
 * {@code activation-gradients} (a hybrid job's micro-batches, read within their clock) 1 h, 1 GiB. Compacted topics ({@code jobs},
 * {@code model}, {@code commands}, {@code membership}, {@code shard-jobs}, {@code placements}) delete nothing by time or size.
 */
public final class TopicRetentions {

    /** Prefix of the per-topic settings. */
    public static final String KEY_PREFIX = "paramhub.topic.";

    public static final String GRADIENTS = "gradients";

    /** ParamHub's defaults, by role. */
    public static final Map<String, TopicRetention> DEFAULTS = Map.of(
            GRADIENTS,
            new TopicRetention(TopicRetention.DAY_MS, TopicRetention.GIB),
            "telemetry",
            new TopicRetention(3 * TopicRetention.DAY_MS, 256 * TopicRetention.MIB),
            "dead-letters",
            new TopicRetention(7 * TopicRetention.DAY_MS, 256 * TopicRetention.MIB),
            "shard-membership",
            new TopicRetention(7 * TopicRetention.DAY_MS, 256 * TopicRetention.MIB),
            "shard-commands",
            new TopicRetention(7 * TopicRetention.DAY_MS, 256 * TopicRetention.MIB),
            "activations",
            new TopicRetention(TopicRetention.HOUR_MS, TopicRetention.GIB),
            "activation-gradients",
            new TopicRetention(TopicRetention.HOUR_MS, TopicRetention.GIB),
            "server-telemetry",
            new TopicRetention(3 * TopicRetention.DAY_MS, 256 * TopicRetention.MIB));

    private static final String MS_SUFFIX = ".retention.ms";
    private static final String BYTES_SUFFIX = ".retention.bytes";

    private final Map<String, TopicRetention> byRole;

    private TopicRetentions(final Map<String, TopicRetention> byRole) {
        this.byRole = Map.copyOf(byRole);
    }

    public static TopicRetentions defaults() {
        return new TopicRetentions(DEFAULTS);
    }

    /**
     * The defaults overridden by the {@code paramhub.topic.*} keys of {@code settings}. Throws Kafka's
     * {@code ConfigException} naming the key when a value is not a whole number, is 0 or below -1, or names
     * a topic that has no retention (compacted, or not ParamHub's).
     */
    public static TopicRetentions from(final Map<?, ?> settings) {
        final Map<String, TopicRetention> byRole = new LinkedHashMap<>(DEFAULTS);
        settings.forEach((rawKey, value) -> {
            final String key = rawKey.toString();
            if (!key.startsWith(KEY_PREFIX)) {
                return;
            }
            final boolean ms = key.endsWith(MS_SUFFIX);
            if (!ms && !key.endsWith(BYTES_SUFFIX)) {
                throw new ConfigException(
                        key,
                        value,
                        "expected " + KEY_PREFIX + "<topic>" + MS_SUFFIX + " or " + KEY_PREFIX + "<topic>"
                                + BYTES_SUFFIX);
            }
            final String role =
                    key.substring(KEY_PREFIX.length(), key.length() - (ms ? MS_SUFFIX : BYTES_SUFFIX).length());
            final TopicRetention current = byRole.get(role);
            if (current == null) {
                throw new ConfigException(
                        key,
                        value,
                        "topics with a retention: " + DEFAULTS.keySet()
                                + " (the others are compacted and keep each key's newest record)");
            }
            final long parsed = parse(key, value);
            byRole.put(role, ms ? current.withRetentionMs(parsed) : current.withRetentionBytes(parsed));
        });
        return new TopicRetentions(byRole);
    }

    /** The retention of the topic of {@code role}. */
    public TopicRetention of(final String role) {
        final TopicRetention retention = byRole.get(role);
        if (retention == null) {
            throw new IllegalArgumentException("no retention for topic role " + role);
        }
        return retention;
    }

    public static String msKey(final String role) {
        return KEY_PREFIX + role + MS_SUFFIX;
    }

    public static String bytesKey(final String role) {
        return KEY_PREFIX + role + BYTES_SUFFIX;
    }

    private static long parse(final String key, final Object value) {
        final long parsed;
        try {
            parsed = Long.parseLong(value.toString().trim());
        } catch (final NumberFormatException e) {
            throw new ConfigException(key, value, "must be a whole number (-1: unlimited)");
        }
        if (parsed == 0 || parsed < -1) {
            throw new ConfigException(key, value, "must be -1 (unlimited) or positive");
        }
        return parsed;
    }
}
