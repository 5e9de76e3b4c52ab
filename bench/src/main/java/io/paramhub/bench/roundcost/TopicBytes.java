package io.paramhub.bench.roundcost;

/**
 * What the brokers wrote to one topic while a run went on: {@code bytesWritten}, the sum over its replicas
 * of their growth between log-dir samples; its size on disk in the first and the last sample; and whether
 * some replica shrank between two samples (compaction or retention dropped data), which makes
 * {@code bytesWritten} a lower bound.
 */
public record TopicBytes(String topic, long bytesWritten, long sizeBefore, long sizeAfter, boolean lowerBound) {

    /** Bytes written per round. */
    public double perRound(final long rounds) {
        return rounds == 0 ? 0 : (double) bytesWritten / rounds;
    }
}
