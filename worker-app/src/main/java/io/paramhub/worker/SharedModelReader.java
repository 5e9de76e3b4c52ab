package io.paramhub.worker;

import io.paramhub.avro.ModelShard;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One reader of {@code model} shared by the workers of one process that read the same partitions: each version is
 * fetched and decoded once for all of them instead of once per worker. It has no thread of its own: whichever
 * worker polls while no other does polls the {@link Source} and hands every record to each worker's queue, from
 * the offset that worker subscribed at; the others wait for their queue or for the poller to finish. A worker
 * that subscribes behind the reader rewinds it, and the others skip the records they already had, so every worker
 * sees exactly the records a reader of its own would have handed it, in the same order.
 */
final class SharedModelReader {

    /** Where the records come from: a {@code TopicReader} of {@code model}, or a test's list. */
    interface Source extends AutoCloseable {

        /** Polls once for at most {@code timeout}, handing each record to {@code sink}. */
        void poll(Duration timeout, Consumer<ConsumerRecord<String, ModelShard>> sink);

        /** The offset of the next record this source hands out, per partition: every partition it reads. */
        Map<TopicPartition, Long> positions();

        /** Goes back to {@code offset} of {@code partition}. */
        void seek(TopicPartition partition, long offset);

        @Override
        void close();
    }

    private final Source source;
    private final Runnable whenUnused;
    private final ReentrantLock polling = new ReentrantLock();
    /** Waiters are woken on it when a poll ends. */
    private final Object pollEnded = new Object();

    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
    /** Whether the last subscription has closed the source; under the poll lock. */
    private boolean closed;

    /** Shares {@code source}; {@code whenUnused} runs once the last subscription closes, after the source closed. */
    SharedModelReader(final Source source, final Runnable whenUnused) {
        this.source = source;
        this.whenUnused = whenUnused;
    }

    /**
     * A feed of the records from {@code from} on (every partition the source reads must be in it), as a reader of
     * its own started there would hand them out; null once the last subscription has closed this reader.
     */
    ModelFeed subscribe(final Map<TopicPartition, Long> from) {
        polling.lock();
        try {
            if (closed) {
                return null;
            }
            final Map<TopicPartition, Long> at = source.positions();
            if (!from.keySet().containsAll(at.keySet())) {
                throw new IllegalArgumentException("a shared reader of " + at.keySet() + " cannot start at " + from);
            }
            at.forEach((partition, position) -> {
                final long offset = from.get(partition);
                if (offset < position) {
                    source.seek(partition, offset);
                }
            });
            final Subscription subscription = new Subscription(from);
            subscriptions.add(subscription);
            return subscription;
        } finally {
            polling.unlock();
        }
    }

    private void dispatch(final ConsumerRecord<String, ModelShard> record) {
        for (final Subscription subscription : subscriptions) {
            subscription.enqueueIfNew(record);
        }
    }

    /** Polls the source for this process's workers, or waits while another worker does; false when it waited. */
    private boolean pollOrWait(final Subscription subscription, final long timeoutNanos) {
        if (polling.tryLock()) {
            try {
                source.poll(Duration.ofNanos(timeoutNanos), this::dispatch);
            } finally {
                polling.unlock();
                synchronized (pollEnded) {
                    pollEnded.notifyAll();
                }
            }
            return true;
        }
        if (timeoutNanos == 0) {
            return false;
        }
        synchronized (pollEnded) {
            if (subscription.queue.isEmpty() && polling.isLocked()) {
                try {
                    pollEnded.wait(Math.max(1, timeoutNanos / 1_000_000), (int) (timeoutNanos % 1_000_000));
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        return false;
    }

    private void unsubscribe(final Subscription subscription) {
        polling.lock();
        try {
            subscriptions.remove(subscription);
            if (!subscriptions.isEmpty()) {
                return;
            }
            closed = true;
            source.close();
        } finally {
            polling.unlock();
        }
        whenUnused.run();
    }

    /** One worker's share of the reader: its queue of records, its positions and the tombstones it met. */
    private final class Subscription implements ModelFeed {

        private final BlockingQueue<ConsumerRecord<String, ModelShard>> queue = new LinkedBlockingQueue<>();
        /** The offset after the last record queued, per partition; under the reader's poll. */
        private final Map<TopicPartition, Long> queuedUpTo;
        /** The offset after the last record handed out, per partition. */
        private final Map<TopicPartition, Long> handedUpTo;

        private final ModelTombstones tombstones = new ModelTombstones();
        private boolean closed;

        Subscription(final Map<TopicPartition, Long> from) {
            this.queuedUpTo = new HashMap<>(from);
            this.handedUpTo = new ConcurrentHashMap<>(from);
        }

        void enqueueIfNew(final ConsumerRecord<String, ModelShard> record) {
            final TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            final Long next = queuedUpTo.get(partition);
            if (next == null || record.offset() < next) {
                return;
            }
            queuedUpTo.put(partition, record.offset() + 1);
            queue.add(record);
        }

        @Override
        public void poll(final Duration timeout, final Consumer<ModelShard> sink) {
            final long deadline = System.nanoTime() + timeout.toNanos();
            while (handOut(sink) == 0) {
                final long left = deadline - System.nanoTime();
                if (left <= 0 && !timeout.isZero()) {
                    return;
                }
                pollOrWait(this, Math.max(0, left));
                if (timeout.isZero()) {
                    handOut(sink);
                    return;
                }
            }
        }

        @Override
        public void catchUp(final Duration timeout, final Consumer<ModelShard> sink) {
            throw new UnsupportedOperationException("a worker catches up on its own reader of the committed model");
        }

        private int handOut(final Consumer<ModelShard> sink) {
            int count = 0;
            for (ConsumerRecord<String, ModelShard> record = queue.poll(); record != null; record = queue.poll()) {
                handedUpTo.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
                tombstones.take(record, sink);
                count++;
            }
            return count;
        }

        @Override
        public boolean deleted(final String job) {
            return tombstones.deleted(job);
        }

        @Override
        public Map<TopicPartition, Long> positions() {
            return Map.copyOf(handedUpTo);
        }

        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                unsubscribe(this);
            }
        }
    }
}
