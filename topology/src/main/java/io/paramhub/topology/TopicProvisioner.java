package io.paramhub.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the topics of a {@link TopicCatalog} that do not exist yet and checks that the
 * shard-partitioned ones agree on their partition count (else shards would land on different tasks).
 */
public final class TopicProvisioner {

    private static final Logger log = LoggerFactory.getLogger(TopicProvisioner.class);
    private static final long TIMEOUT_SECONDS = 30;

    private final Admin admin;

    public TopicProvisioner(final Admin admin) {
        this.admin = admin;
    }

    /**
     * Creates what is missing, each with its layout's configs under {@code replication}, and waits until their
     * leaders serve them ({@link PartitionLeaders}); returns the names it created. Existing topics are left as
     * they are.
     */
    public List<String> ensure(final List<TopicLayout> layouts, final TopicReplication replication) {
        final Set<String> existing = AdminCalls.call(
                "listing topics",
                TIMEOUT_SECONDS,
                () -> admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        final Optional<Short> replicas =
                replication.brokerFactor() ? Optional.empty() : Optional.of(replication.factor());
        final List<NewTopic> missing = new ArrayList<>();
        for (final TopicLayout layout : layouts) {
            if (!existing.contains(layout.name())) {
                missing.add(new NewTopic(layout.name(), Optional.of(layout.partitions()), replicas)
                        .configs(layout.configs(replication)));
            }
        }
        // one request for all of them, where one a topic waited for a controller round trip each
        final Map<String, KafkaFuture<Void>> results =
                missing.isEmpty() ? Map.of() : admin.createTopics(missing).values();
        final List<String> created = new ArrayList<>();
        for (final NewTopic topic : missing) {
            try {
                results.get(topic.name()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                created.add(topic.name());
                log.info(
                        "created topic {} ({} partitions, replication factor {}, configs {})",
                        topic.name(),
                        topic.numPartitions(),
                        replication.brokerFactor() ? "broker default" : replication.factor(),
                        topic.configs());
            } catch (final ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException(
                            "could not create topic " + topic.name() + ": "
                                    + e.getCause().getMessage(),
                            e.getCause());
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while creating topic " + topic.name(), e);
            } catch (final TimeoutException e) {
                throw new IllegalStateException(
                        "timed out creating topic " + topic.name() + ": is the Kafka cluster reachable?", e);
            }
        }
        PartitionLeaders.awaitServing(admin, created, Duration.ofSeconds(TIMEOUT_SECONDS));
        return created;
    }

    /**
     * The common partition count of {@code topics}; fails naming each count when they differ. Waits for
     * topics just created to show up in the metadata.
     */
    public int commonPartitionCount(final List<String> topics) {
        final Map<String, TopicDescription> descriptions = describeWhenKnown(topics);
        final Map<String, Integer> counts = new HashMap<>();
        descriptions.forEach(
                (name, description) -> counts.put(name, description.partitions().size()));
        if (counts.values().stream().distinct().count() != 1) {
            throw new IllegalStateException("topics " + topics + " must have the same partition count, "
                    + "since one task serves a shard from all of them; found " + counts);
        }
        return counts.values().iterator().next();
    }

    private Map<String, TopicDescription> describeWhenKnown(final List<String> topics) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            try {
                return admin.describeTopics(topics).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (final ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "could not describe topics " + topics + ": "
                                    + e.getCause().getMessage(),
                            e.getCause());
                }
                sleepBriefly();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while describing topics " + topics, e);
            } catch (final TimeoutException e) {
                throw new IllegalStateException(
                        "Kafka did not describe topics " + topics + " within " + TIMEOUT_SECONDS
                                + " s: is the cluster up?",
                        e);
            }
        }
    }

    private static void sleepBriefly() {
        try {
            TimeUnit.MILLISECONDS.sleep(100);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for topic metadata", e);
        }
    }
}
