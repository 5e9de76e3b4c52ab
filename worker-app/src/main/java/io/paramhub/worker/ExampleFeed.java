package io.paramhub.worker;

import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A topic-mode worker's input: the training examples of its partitions of the job's data topic, in offset order,
 * from after the last clock it committed. The Kafka implementation ({@link KafkaExampleFeed}) reads the topic;
 * tests use an in-memory one.
 */
interface ExampleFeed extends AutoCloseable {

    /** Where this worker resumes: the clock after its last committed one, and the examples trained until then. */
    record Resume(long clock, long trained) {
        static final Resume START = new Resume(0, 0);
    }

    /** Where a restarted worker resumes; {@link Resume#START} for a first start. */
    Resume resume();

    /**
     * The next examples, up to {@code quota}: waits for the first (heartbeats go on meanwhile), then at most
     * {@code lingerMs} for the rest; returns what it has when {@code stopping} says so.
     */
    ClockInput take(int quota, int lingerMs, BooleanSupplier stopping);

    /**
     * The input positions to commit with a clock's output: after every example taken so far, with
     * {@code nextClock} and the examples it has taken in all as metadata, which {@link #resume} reads back.
     */
    Map<TopicPartition, OffsetAndMetadata> offsets(long nextClock);

    /** The consumer group the offsets are committed for. */
    ConsumerGroupMetadata group();

    @Override
    void close();
}
