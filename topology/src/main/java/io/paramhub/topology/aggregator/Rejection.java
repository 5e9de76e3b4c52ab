package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetterReason;

/** Why a record goes to {@code dead-letters} instead of being applied. */
record Rejection(DeadLetterReason reason, String message) {}
