package io.paramhub.topology;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;

/**
 * Waits until every partition of topics just created is served by its leader, before anything produces to them.
 *
 * <p>Why: a topic shows up in the metadata a moment before its leader's broker serves its partitions. An
 * idempotent producer whose first batch to such a partition is refused ({@code NOT_LEADER_OR_FOLLOWER}) can have
 * its second batch, already in flight, accepted first; the retried first batch then meets
 * {@code OUT_OF_ORDER_SEQUENCE_NUMBER} for as long as the delivery timeout allows, and the records after it wait.
 * A {@code ListOffsets} request is answered by the partition's leader only once it serves the partition, so one
 * that succeeds for every partition is the signal.
 */
public final class PartitionLeaders {

    private static final long RETRY_MS = 50;

    private PartitionLeaders() {}

    /**
     * Returns, once every partition of {@code topics} answers {@code ListOffsets} at its leader, the topics'
     * descriptions.
     *
     * @throws IllegalStateException when that has not happened within {@code timeout}, or Kafka refuses
     */
    public static Map<String, TopicDescription> awaitServing(
            final Admin admin, final Collection<String> topics, final Duration timeout) {
        if (topics.isEmpty()) {
            return Map.of();
        }
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                final Map<String, TopicDescription> described =
                        admin.describeTopics(topics).allTopicNames().get(remainingMs(deadline), TimeUnit.MILLISECONDS);
                admin.listOffsets(latest(described.values())).all().get(remainingMs(deadline), TimeUnit.MILLISECONDS);
                return described;
            } catch (final ExecutionException e) {
                if (!(e.getCause() instanceof RetriableException) || System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "partitions of topics " + topics + " have no serving leader: "
                                    + e.getCause().getMessage(),
                            e.getCause());
                }
                pause(topics);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the leaders of " + topics, e);
            } catch (final TimeoutException e) {
                throw new IllegalStateException(
                        "the partitions of topics " + topics + " had no serving leader within " + timeout.toMillis()
                                + " ms",
                        e);
            }
        }
    }

    private static Map<TopicPartition, OffsetSpec> latest(final Collection<TopicDescription> topics) {
        final Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
        for (final TopicDescription topic : topics) {
            topic.partitions()
                    .forEach(p -> partitions.put(new TopicPartition(topic.name(), p.partition()), OffsetSpec.latest()));
        }
        return partitions;
    }

    private static long remainingMs(final long deadline) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }

    private static void pause(final Collection<String> topics) {
        try {
            TimeUnit.MILLISECONDS.sleep(RETRY_MS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the leaders of " + List.copyOf(topics), e);
        }
    }
}
