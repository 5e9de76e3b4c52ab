package io.paramhub.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;

/**
 * What ParamHub expects of one of its existing topics at start-up, from the {@link TopicLayout} it would create
 * the topic with and the {@link TopicReplication} asked for, and which departures ({@link TopicDrift}) stop an app.
 *
 * <p>Fatal, because ParamHub would lose or be refused records it relies on, later and mid-job:
 * <ul>
 *   <li>{@code cleanup.policy} of a compacted topic ({@code jobs}, {@code model}, {@code membership},
 *       {@code commands}, {@code shard-jobs}, {@code placements}) without {@code compact}, or with {@code delete}
 *       and a finite {@code retention.ms}/{@code retention.bytes}: the newest record of each key is state that
 *       apps and restarts read back;</li>
 *   <li>{@code cleanup.policy} of an event topic ({@code gradients}, {@code shard-membership},
 *       {@code shard-commands}, {@code activations}, {@code activation-gradients}) with {@code compact}: every
 *       record counts, and compaction keeps one per key;</li>
 *   <li>replication factor 1 on a cluster of two or more brokers: one broker lost takes the topic offline and one
 *       disk lost loses committed records, which exactly-once cannot survive (on one broker, replication 1 is
 *       all there is, and accepted);</li>
 *   <li>{@code min.insync.replicas} above the replication factor: no {@code acks=all} write succeeds;</li>
 *   <li>{@code max.message.bytes} under Kafka's default ({@value #RECORD_FLOOR_BYTES}), which ParamHub sizes every
 *       shard record to fit ({@code ShardSizing}).</li>
 * </ul>
 * Warnings, because records still fit and survive one broker's loss, or only observation suffers: fewer replicas
 * or a lower {@code min.insync.replicas} than asked for ({@code --replication-factor},
 * {@code --min-insync-replicas}), {@code min.insync.replicas} 1 on a replicated topic, {@code jobs} taking less
 * than {@link TopicCatalog#JOBS_MAX_MESSAGE_BYTES} (only an external model's large spec is refused, when it is
 * submitted), and compaction of an observational topic ({@code telemetry}, {@code server-telemetry},
 * {@code dead-letters}).
 */
public record TopicExpectation(TopicLayout layout, TopicReplication replication, boolean observational) {

    /** Kafka's default {@code message.max.bytes}, 1 MiB and a batch header: ParamHub's records fit under it. */
    public static final int RECORD_FLOOR_BYTES = 1024 * 1024 + 12;

    private static final String KAFKA_DEFAULT_MAX_MESSAGE_BYTES = Integer.toString(RECORD_FLOOR_BYTES);
    private static final String KAFKA_DEFAULT_RETENTION_MS = Long.toString(7 * TopicRetention.DAY_MS);

    /** An existing topic as Kafka describes it: its smallest replica count over partitions and its configs. */
    public record Observed(int replicationFactor, Map<String, String> configs) {}

    /**
     * What departs from this expectation in {@code observed} on a cluster of {@code brokers} live brokers, each
     * with a fix addressed to {@code bootstrapServers}; empty when nothing does.
     */
    public List<TopicDrift> drifts(final Observed observed, final int brokers, final String bootstrapServers) {
        final Fixes fixes = new Fixes(layout.name(), bootstrapServers);
        final List<TopicDrift> drifts = new ArrayList<>();
        cleanupPolicy(observed.configs(), fixes, drifts);
        replicas(observed, brokers, fixes, drifts);
        maxMessageBytes(observed.configs(), fixes, drifts);
        return drifts;
    }

    private void cleanupPolicy(final Map<String, String> configs, final Fixes fixes, final List<TopicDrift> drifts) {
        final String value = configs.getOrDefault(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE);
        final List<String> policy = Arrays.stream(
                        value.replace("[", "").replace("]", "").split(","))
                .map(String::trim)
                .toList();
        final boolean compacts = policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT);
        final boolean deletes = policy.contains(TopicConfig.CLEANUP_POLICY_DELETE);
        final String fix = fixes.config(TopicConfig.CLEANUP_POLICY_CONFIG, layout.cleanupPolicy());
        final String retentionMs = configs.getOrDefault(TopicConfig.RETENTION_MS_CONFIG, KAFKA_DEFAULT_RETENTION_MS)
                .trim();
        final String retentionBytes =
                configs.getOrDefault(TopicConfig.RETENTION_BYTES_CONFIG, "-1").trim();
        if (layout.isCompacted()) {
            final String why = "each key's newest record is state that apps and restarts read back";
            if (!compacts) {
                drifts.add(drift(TopicConfig.CLEANUP_POLICY_CONFIG, value, "compact", why, fix, true));
            } else if (deletes && !("-1".equals(retentionMs) && "-1".equals(retentionBytes))) {
                drifts.add(drift(
                        TopicConfig.CLEANUP_POLICY_CONFIG,
                        value + " with retention.ms " + retentionMs + " and retention.bytes " + retentionBytes,
                        "compact (or retention.ms and retention.bytes -1)",
                        why + ", and retention would delete it",
                        fix,
                        true));
            }
        } else if (compacts) {
            final String why = observational
                    ? "compaction keeps one record per key, thinning a history that is only observed"
                    : "every record is an event that counts, and compaction keeps one per key";
            drifts.add(drift(TopicConfig.CLEANUP_POLICY_CONFIG, value, "delete", why, fix, !observational));
        }
    }

    private void replicas(
            final Observed observed, final int brokers, final Fixes fixes, final List<TopicDrift> drifts) {
        final int factor = observed.replicationFactor();
        final String replicationSetting = "replication factor";
        if (factor < 2 && brokers >= 2) {
            final int wanted = Math.min(brokers, replication.brokerFactor() ? 2 : Math.max(2, replication.factor()));
            drifts.add(drift(
                    replicationSetting,
                    Integer.toString(factor),
                    "at least " + wanted + " on a cluster of " + brokers + " brokers",
                    "one broker lost takes the topic offline and one disk lost loses committed records",
                    fixes.replicas(wanted),
                    true));
        } else if (!replication.brokerFactor() && factor < Math.min(brokers, replication.factor())) {
            drifts.add(drift(
                    replicationSetting,
                    Integer.toString(factor),
                    Short.toString(replication.factor()) + " as --replication-factor asks",
                    "fewer brokers may be lost before records are",
                    fixes.replicas(replication.factor()),
                    false));
        }
        final int minInSync = Integer.parseInt(observed.configs()
                .getOrDefault(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "1")
                .trim());
        final int wantedMinInSync =
                Math.min(factor, replication.brokerMinInSyncReplicas() ? 2 : replication.minInSyncReplicas());
        if (minInSync > factor) {
            drifts.add(drift(
                    TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
                    Integer.toString(minInSync),
                    "at most the replication factor, " + factor,
                    "no write with acks=all can succeed",
                    fixes.config(
                            TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(Math.max(1, wantedMinInSync))),
                    true));
        } else if (factor >= 2 && minInSync < wantedMinInSync) {
            drifts.add(drift(
                    TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
                    Integer.toString(minInSync),
                    Integer.toString(wantedMinInSync),
                    "an acknowledged write may be on fewer replicas, and lost with them",
                    fixes.config(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(wantedMinInSync)),
                    false));
        }
    }

    private void maxMessageBytes(final Map<String, String> configs, final Fixes fixes, final List<TopicDrift> drifts) {
        final long bytes = Long.parseLong(
                configs.getOrDefault(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, KAFKA_DEFAULT_MAX_MESSAGE_BYTES)
                        .trim());
        final int wanted = Math.max(RECORD_FLOOR_BYTES, layout.maxMessageBytes());
        if (bytes >= wanted) {
            return;
        }
        final boolean fatal = bytes < RECORD_FLOOR_BYTES;
        drifts.add(drift(
                TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                Long.toString(bytes),
                "at least " + wanted,
                fatal
                        ? "ParamHub's shard records are sized to fit Kafka's default; a larger one is refused mid-job"
                        : "an external model's spec up to 64 MiB travels on it, and is refused when submitted",
                fixes.config(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(wanted)),
                fatal));
    }

    private TopicDrift drift(
            final String setting,
            final String actual,
            final String expected,
            final String why,
            final String fix,
            final boolean fatal) {
        return new TopicDrift(layout.name(), setting, actual, expected, why, fix, fatal);
    }

    /** The commands that set a topic's config or its replica count. */
    private record Fixes(String topic, String bootstrapServers) {

        String config(final String setting, final String value) {
            return "kafka-configs.sh --bootstrap-server " + bootstrapServers + " --alter --entity-type topics "
                    + "--entity-name " + topic + " --add-config " + setting + "=" + value;
        }

        String replicas(final int factor) {
            return "kafka-reassign-partitions.sh --bootstrap-server " + bootstrapServers + " --execute "
                    + "--reassignment-json-file PLAN, PLAN giving each partition of " + topic + " " + factor
                    + " replicas";
        }
    }
}
