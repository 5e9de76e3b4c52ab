package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetterReason;

/**
 * What a shard ({@link HotShard#admit}) makes of a gradient: its values and staleness, or why it is refused and whether the
 * refusal changed the shard (then to be stored).
 */
record Admission(float[] values, long lag, Rejection rejection, boolean changed) {

    static Admission refusal(final DeadLetterReason reason, final String message) {
        return new Admission(null, 0, new Rejection(reason, message), false);
    }

    /** Refused: the gradient goes to {@code dead-letters}. */
    boolean refused() {
        return rejection != null;
    }
}
