package io.paramhub.topology.placement;

import io.paramhub.avro.ShardPlacement;
import io.paramhub.topology.Topic;
import io.paramhub.topology.client.TopicReader;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the newest placement on {@code placements} (committed records, the highest version wins) for the
 * aggregator's {@link PlacementTaskAssignor}: a daemon thread reads the topic from the beginning and then
 * follows it, telling its listeners ({@link #onNewer(Consumer)}) of each newer version. {@code placements} in,
 * nothing out.
 */
public final class PlacementWatcher implements PlacementSource, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PlacementWatcher.class);
    private static final Duration POLL = Duration.ofMillis(200);

    private final AtomicReference<ShardPlacement> newest = new AtomicReference<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final List<Consumer<ShardPlacement>> listeners = new CopyOnWriteArrayList<>();
    private final Thread thread;

    private PlacementWatcher(final Topic<String, ShardPlacement> topic, final Properties client) {
        this.thread = new Thread(() -> follow(topic, client), "placement-watcher");
        this.thread.setDaemon(true);
    }

    /** Starts following {@code topic} with the given client settings. */
    public static PlacementWatcher start(final Topic<String, ShardPlacement> topic, final Properties client) {
        final PlacementWatcher watcher = new PlacementWatcher(topic, client);
        watcher.thread.start();
        return watcher;
    }

    /** Calls {@code listener} (on the watcher's thread) with every placement newer than all read before it. */
    public PlacementWatcher onNewer(final Consumer<ShardPlacement> listener) {
        listeners.add(listener);
        return this;
    }

    @Override
    public Optional<ShardPlacement> current() {
        return Optional.ofNullable(newest.get());
    }

    private void follow(final Topic<String, ShardPlacement> topic, final Properties client) {
        try (TopicReader<String, ShardPlacement> reader = new TopicReader<>(topic, client)) {
            while (!closed.get()) {
                reader.poll(POLL, record -> {
                    final ShardPlacement placement = record.value();
                    if (placement == null) {
                        return;
                    }
                    final ShardPlacement before = newest.getAndAccumulate(
                            placement,
                            (old, offered) -> old == null || offered.getVersion() > old.getVersion() ? offered : old);
                    if (before == null || placement.getVersion() > before.getVersion()) {
                        log.info("placement version {} read: {}", placement.getVersion(), placement.getOwners());
                        listeners.forEach(listener -> listener.accept(placement));
                    }
                });
            }
        } catch (final RuntimeException e) {
            if (!closed.get()) {
                log.error("following {} failed; shards keep the placement last read", topic.name(), e);
            }
        }
    }

    @Override
    public void close() {
        closed.set(true);
        try {
            thread.join(Duration.ofSeconds(5).toMillis());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
