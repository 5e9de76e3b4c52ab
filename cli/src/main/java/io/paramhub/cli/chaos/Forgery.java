package io.paramhub.cli.chaos;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;

/**
 * One kind of record the hostile tenant forges, and how its dead letter is told apart from every other: its
 * reason, and an error naming {@code marker}. A forgery of a model version is read, and dead-lettered, by each
 * worker of the job that reads it ({@code byWorkers}); any other by the aggregators' fan-outs or shard 0, once.
 *
 * @param kind       a name for the summary, e.g. {@code command-negative-share}
 * @param reason     the reason its dead letter must give
 * @param marker     text its dead letter's error contains, and no other letter's
 * @param byWorkers  whether the job's workers dead-letter it (one letter per reading worker) rather than the aggregator
 */
record Forgery(String kind, DeadLetterReason reason, String marker, boolean byWorkers) {

    /** Whether {@code letter} is this forgery's. */
    boolean matches(final DeadLetter letter) {
        return letter.getReason() == reason && letter.getError().contains(marker);
    }
}
