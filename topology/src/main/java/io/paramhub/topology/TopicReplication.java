package io.paramhub.topology;

/**
 * The replication of the topics ParamHub creates: the replication factor and {@code min.insync.replicas};
 * a value below 1 leaves it to the broker ({@code default.replication.factor}, {@code min.insync.replicas}).
 */
public record TopicReplication(short factor, int minInSyncReplicas) {

    /** Both from the broker's defaults. */
    public static final TopicReplication BROKER_DEFAULTS = new TopicReplication((short) -1, -1);

    public TopicReplication {
        if (factor >= 1 && minInSyncReplicas > factor) {
            throw new IllegalArgumentException("min.insync.replicas (" + minInSyncReplicas
                    + ") cannot exceed the replication factor (" + factor + "): no write would ever succeed");
        }
    }

    /**
     * {@code factor} replicas and {@code minInSyncReplicas}, or, when that is below 1, ParamHub's default for
     * the factor: 2 when replicated (a write survives one broker lost), else the broker's.
     */
    public static TopicReplication of(final short factor, final int minInSyncReplicas) {
        if (minInSyncReplicas >= 1) {
            return new TopicReplication(factor, minInSyncReplicas);
        }
        return new TopicReplication(factor, factor > 1 ? 2 : -1);
    }

    public boolean brokerFactor() {
        return factor < 1;
    }

    public boolean brokerMinInSyncReplicas() {
        return minInSyncReplicas < 1;
    }
}
