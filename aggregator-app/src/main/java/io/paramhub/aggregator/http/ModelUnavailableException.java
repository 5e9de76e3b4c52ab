package io.paramhub.aggregator.http;

/**
 * The model cannot be read right now: Kafka Streams is not RUNNING, a store is not queryable
 * (a rebalance moved or is restoring a shard), or the instance hosting a shard did not answer.
 * Answered with 503 and a {@code Retry-After} header.
 */
final class ModelUnavailableException extends RuntimeException {

    ModelUnavailableException(final String message) {
        super(message);
    }

    ModelUnavailableException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
