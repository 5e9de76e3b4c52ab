package io.paramhub.bench.replay;

import io.paramhub.avro.GradientShard;
import io.paramhub.avro.WorkerStatus;
import java.util.Set;

/** Which of a job's records a recording reads and keeps, by topic and value. */
interface RecordFilter {

    /** Every record of every recorded topic. */
    RecordFilter ALL = new RecordFilter() {
        @Override
        public boolean reads(final RecordedTopic topic) {
            return true;
        }

        @Override
        public boolean keeps(final RecordedTopic topic, final Object value) {
            return true;
        }
    };

    /** Whether the recording reads {@code topic} at all. */
    boolean reads(RecordedTopic topic);

    /** Whether the recording keeps a record of {@code topic} with this value. */
    boolean keeps(RecordedTopic topic, Object value);

    /**
     * What a replay into a fresh aggregator needs of a job's first {@code clocks} clocks: the job, and the
     * membership and gradient records of clocks below {@code clocks} (so a worker leaving after them is left
     * out). Reads no other topic.
     */
    static RecordFilter aggregatorFeed(final long clocks) {
        if (clocks < 1) {
            throw new IllegalArgumentException("a replay needs >= 1 clock, not " + clocks);
        }
        final Set<RecordedTopic> read = Set.of(RecordedTopic.JOBS, RecordedTopic.MEMBERSHIP, RecordedTopic.GRADIENTS);
        return new RecordFilter() {
            @Override
            public boolean reads(final RecordedTopic topic) {
                return read.contains(topic);
            }

            @Override
            public boolean keeps(final RecordedTopic topic, final Object value) {
                if (value instanceof GradientShard gradient) {
                    return gradient.getClock() < clocks;
                }
                if (value instanceof WorkerStatus status) {
                    return status.getClock() < clocks;
                }
                return read.contains(topic);
            }
        };
    }
}
