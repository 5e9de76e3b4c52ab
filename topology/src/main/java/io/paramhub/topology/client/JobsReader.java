package io.paramhub.topology.client;

import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Reads {@code jobs}, {@code model}, {@code membership}, {@code commands} and {@code dead-letters} into a
 * {@link JobsDigest}: committed records only, from the beginning, each {@link #read} up to the end offsets the
 * topics had when it was called, without a consumer group. The readers stay open, so that a second
 * {@link #read} (a {@code --watch}) takes only what was appended since. Creates no topic: a topic other than
 * {@code jobs} that does not exist yet is read as empty.
 */
public final class JobsReader implements AutoCloseable {

    private final JobsDigest digest = new JobsDigest();
    private final List<Feed<?>> feeds = new ArrayList<>();

    /** One topic's reader and where its records go in the digest. */
    private record Feed<V>(TopicReader<String, V> reader, BiConsumer<String, V> sink) {
        void read(final Duration timeout) {
            reader.catchUp(timeout, record -> sink.accept(record.key(), record.value()));
        }
    }

    /** Readers of {@code topics} with the client settings {@code clientProperties}; fails when {@code jobs} is missing. */
    public JobsReader(final TopicCatalog topics, final Properties clientProperties) {
        final Properties client = new Properties();
        client.putAll(clientProperties);
        client.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        try {
            feeds.add(open(topics.jobs(), client, digest::job, true));
            feeds.add(open(topics.model(), client, digest::model, false));
            feeds.add(open(topics.membership(), client, digest::membership, false));
            feeds.add(open(topics.commands(), client, digest::command, false));
            feeds.add(open(topics.deadLetters(), client, digest::deadLetter, false));
        } catch (final RuntimeException e) {
            close();
            throw e;
        }
        feeds.removeIf(feed -> feed.reader() == null);
    }

    private static <V> Feed<V> open(
            final Topic<String, V> topic,
            final Properties client,
            final BiConsumer<String, V> sink,
            final boolean required) {
        try {
            return new Feed<>(new TopicReader<>(topic, client, Map.of()), sink);
        } catch (final IllegalStateException e) {
            if (required) {
                throw new IllegalStateException(
                        "no topic " + topic.name() + " on this cluster: no job has been submitted to it (or the "
                                + "topic prefix differs)",
                        e);
            }
            return new Feed<>(null, sink);
        }
    }

    /** Reads every topic up to its end as of now, within {@code timeout} a topic; returns the digest. */
    public JobsDigest read(final Duration timeout) {
        for (final Feed<?> feed : feeds) {
            feed.read(timeout);
        }
        return digest;
    }

    @Override
    public void close() {
        for (final Feed<?> feed : feeds) {
            if (feed.reader() != null) {
                feed.reader().close();
            }
        }
    }
}
