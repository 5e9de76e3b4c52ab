package io.paramhub.topology;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;

/**
 * How long a {@code delete} topic keeps its records: {@code retention.ms} and {@code retention.bytes} (per
 * partition, as Kafka counts it); -1 is unlimited, Kafka's own meaning.
 */
public record TopicRetention(long retentionMs, long retentionBytes) {

    /** Nothing deleted by time or size: what a compacted topic gets. */
    public static final TopicRetention UNLIMITED = new TopicRetention(-1, -1);

    public static final long HOUR_MS = 60L * 60 * 1000;
    public static final long DAY_MS = 24 * HOUR_MS;
    public static final long MIB = 1024L * 1024;
    public static final long GIB = 1024 * MIB;

    public TopicRetention {
        if (retentionMs < -1 || retentionMs == 0) {
            throw new IllegalArgumentException("retention.ms must be -1 (unlimited) or positive, not " + retentionMs);
        }
        if (retentionBytes < -1 || retentionBytes == 0) {
            throw new IllegalArgumentException(
                    "retention.bytes must be -1 (unlimited) or positive, not " + retentionBytes);
        }
    }

    /** The same retention with {@code retention.ms} replaced. */
    public TopicRetention withRetentionMs(final long ms) {
        return new TopicRetention(ms, retentionBytes);
    }

    /** The same retention with {@code retention.bytes} replaced. */
    public TopicRetention withRetentionBytes(final long bytes) {
        return new TopicRetention(retentionMs, bytes);
    }

    /** The topic configs that say so. */
    public Map<String, String> configs() {
        final Map<String, String> configs = new LinkedHashMap<>();
        configs.put(TopicConfig.RETENTION_MS_CONFIG, Long.toString(retentionMs));
        configs.put(TopicConfig.RETENTION_BYTES_CONFIG, Long.toString(retentionBytes));
        return configs;
    }
}
