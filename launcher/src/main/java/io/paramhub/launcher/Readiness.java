package io.paramhub.launcher;

import org.apache.kafka.streams.KafkaStreams;

/** Whether an app is ready for work, and if not, why: what {@code /health/ready} answers. */
@FunctionalInterface
public interface Readiness {

    /** Null when ready, else the reason it is not. */
    String notReadyBecause();

    /** Ready while {@code streams} is RUNNING (not while it starts, rebalances or stops). */
    static Readiness of(final KafkaStreams streams) {
        return () -> streams.state() == KafkaStreams.State.RUNNING ? null : "Kafka Streams is " + streams.state();
    }
}
