package io.paramhub.integration;

import io.paramhub.avro.DeadLetterReason;
import java.util.Set;

/**
 * A record a test produced as a faulty or hostile client would: what kind of bad input it is, where it
 * landed, what it held ({@code null} for a tombstone), and the dead-letter reasons it can get.
 */
record Injection(
        String kind,
        String topic,
        int partition,
        long offset,
        String key,
        byte[] value,
        Set<DeadLetterReason> reasons) {

    /** A bad record before it is produced: {@code partition} null lets the producer choose by key. */
    record Planned(
            String kind, String topic, Integer partition, String key, byte[] value, Set<DeadLetterReason> reasons) {}
}
