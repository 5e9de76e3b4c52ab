package io.paramhub.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;

/**
 * What a topic that restore or replay reads must keep, checked against its configs: a log that must reach
 * back far enough ({@code gradients}), or state that must never be deleted by time or size ({@code model},
 * the Streams changelogs).
 */
public record RetentionRequirement(String why, long minRetentionMs, long minRetentionBytes, boolean compacted) {

    /** Below this the check refuses {@code gradients}' {@code retention.ms}. */
    public static final long GRADIENTS_MIN_RETENTION_MS = TopicRetention.HOUR_MS;
    /** Below this the check refuses {@code gradients}' {@code retention.bytes} (per partition). */
    public static final long GRADIENTS_MIN_RETENTION_BYTES = 256 * TopicRetention.MIB;

    /** {@code gradients}: a restarted shard reads back those since its last snapshot and its committed offset. */
    public static RetentionRequirement gradients() {
        return new RetentionRequirement(
                "a restarted aggregator reads back the gradients since each shard's last snapshot",
                GRADIENTS_MIN_RETENTION_MS,
                GRADIENTS_MIN_RETENTION_BYTES,
                false);
    }

    /** {@code model} or a changelog: a replica or a restored store needs each key's newest record. */
    public static RetentionRequirement compactedState(final String why) {
        return new RetentionRequirement(why, -1, -1, true);
    }

    /** What is wrong with {@code configs} (a topic's, by config name) for {@code topic}; empty when nothing is. */
    public List<String> problems(final String topic, final Map<String, String> configs) {
        final List<String> problems = new ArrayList<>();
        final List<String> policy = Arrays.stream(configs.getOrDefault(TopicConfig.CLEANUP_POLICY_CONFIG, "delete")
                        .split(","))
                .map(String::trim)
                .toList();
        final boolean deletes = policy.contains(TopicConfig.CLEANUP_POLICY_DELETE);
        if (compacted && !policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
            problems.add("topic " + topic + ": cleanup.policy is " + String.join(",", policy)
                    + ", must include compact: " + why);
        }
        if (!deletes) {
            return problems;
        }
        final long ms = number(configs, TopicConfig.RETENTION_MS_CONFIG);
        final long bytes = number(configs, TopicConfig.RETENTION_BYTES_CONFIG);
        if (compacted) {
            if (ms != -1) {
                problems.add(tooShort(topic, TopicConfig.RETENTION_MS_CONFIG, ms, "-1 (unlimited)"));
            }
            if (bytes != -1) {
                problems.add(tooShort(topic, TopicConfig.RETENTION_BYTES_CONFIG, bytes, "-1 (unlimited)"));
            }
            return problems;
        }
        if (ms != -1 && ms < minRetentionMs) {
            problems.add(tooShort(topic, TopicConfig.RETENTION_MS_CONFIG, ms, Long.toString(minRetentionMs)));
        }
        if (bytes != -1 && bytes < minRetentionBytes) {
            problems.add(tooShort(topic, TopicConfig.RETENTION_BYTES_CONFIG, bytes, Long.toString(minRetentionBytes)));
        }
        return problems;
    }

    private String tooShort(final String topic, final String setting, final long value, final String minimum) {
        return "topic " + topic + ": " + setting + " is " + value + ", the minimum is " + minimum + " (" + why + ")";
    }

    /** A missing value is Kafka's default for both settings that matter here: -1 for bytes, 7 days for ms. */
    private static long number(final Map<String, String> configs, final String name) {
        final String value = configs.get(name);
        if (value == null) {
            return TopicConfig.RETENTION_MS_CONFIG.equals(name) ? 7 * TopicRetention.DAY_MS : -1;
        }
        return Long.parseLong(value.trim());
    }
}
