package io.paramhub.stream;

import io.paramhub.topology.PartitionLeaders;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The topic a stream writes to: its name, its partition count and whether the streamer created it. {@link #ensure}
 * creates a missing topic with the partitions asked for, the broker's replication factor and
 * {@code min.insync.replicas} (as ParamHub's apps create theirs by default, {@code TopicSetup.defaults()}) and the
 * producers' timestamps ({@code CreateTime}); an existing topic is used with the partitions it has.
 */
public record StreamTopic(String name, int partitions, boolean created) {

    /**
     * {@code topic}, created with {@code partitions} when missing.
     *
     * @throws IllegalStateException when the broker does not answer within {@code timeout} or refuses
     */
    public static StreamTopic ensure(
            final Admin admin, final String topic, final int partitions, final Duration timeout) {
        final Optional<TopicDescription> existing = describe(admin, topic, timeout);
        if (existing.isPresent()) {
            return new StreamTopic(topic, existing.get().partitions().size(), false);
        }
        final NewTopic newTopic = new NewTopic(topic, Optional.of(partitions), Optional.empty())
                .configs(Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "CreateTime"));
        boolean created = true;
        try {
            admin.createTopics(List.of(newTopic)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (final ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw failed("creating topic " + topic, e, timeout);
            }
            created = false;
        } catch (final InterruptedException | TimeoutException e) {
            throw failed("creating topic " + topic, e, timeout);
        }
        // a topic just created is in the metadata, and served by its leaders, a moment later
        final TopicDescription served;
        try {
            served = PartitionLeaders.awaitServing(admin, List.of(topic), timeout)
                    .get(topic);
        } catch (final IllegalStateException e) {
            throw new IllegalStateException("topic " + topic + " was created but " + e.getMessage(), e);
        }
        return new StreamTopic(topic, served.partitions().size(), created);
    }

    /** What the streamer writes to, as a line for the user: says so when the partitions are not those asked for. */
    public String describe(final int asked) {
        if (created) {
            return "topic " + name + ": created with " + partitions + " partitions";
        }
        if (partitions != asked) {
            return "topic " + name + ": exists with " + partitions + " partitions, not the " + asked
                    + " asked for; writing to its " + partitions;
        }
        return "topic " + name + ": exists with " + partitions + " partitions";
    }

    private static Optional<TopicDescription> describe(final Admin admin, final String topic, final Duration timeout) {
        try {
            return Optional.of(admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .get(topic));
        } catch (final ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw failed("describing topic " + topic, e, timeout);
        } catch (final InterruptedException | TimeoutException e) {
            throw failed("describing topic " + topic, e, timeout);
        }
    }

    /** What went wrong, for the user: the broker's error, or that it did not answer in time. */
    private static IllegalStateException failed(final String what, final Exception e, final Duration timeout) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return new IllegalStateException("interrupted while " + what, e);
        }
        final Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
        // the admin client's own timeout (a RetriableException) may come before the future's
        if (cause instanceof TimeoutException || cause instanceof RetriableException) {
            return new IllegalStateException(
                    "Kafka did not answer within " + StreamSettings.seconds(timeout) + " while " + what
                            + ": is bootstrap.servers right and the cluster up?",
                    cause);
        }
        return new IllegalStateException("Kafka failed " + what + ": " + cause.getMessage(), cause);
    }
}
