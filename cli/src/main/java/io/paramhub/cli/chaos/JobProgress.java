package io.paramhub.cli.chaos;

import io.paramhub.avro.ModelShard;
import io.paramhub.topology.Topic;
import io.paramhub.topology.client.TopicReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Follows one job on {@code model} as workers see it (read_uncommitted) in a thread of its own: the newest clock
 * every shard has reached, when each clock was first reached, and whether every shard has published its final
 * version. A BSP or staged job's clock is its version; an SSP job's, whose versions are one a gradient, is the
 * {@code minClock} its shards publish (every live worker has finished the clocks before it). The nemesis paces its
 * faults by the BSP job's. A record of a clock beyond the job's last, or of another shard count, is none of the
 * aggregators' (the hostile tenant forges such) and is passed over.
 */
final class JobProgress implements AutoCloseable {

    private final Topic<String, ModelShard> model;
    private final Properties client;
    private final String job;
    private final int shards;
    private final long lastClock;
    private final boolean byMinClock;
    private final Map<String, Long> newest = new HashMap<>();
    private final Set<String> finals = new HashSet<>();
    /** When clock i (index) was first reached by every shard, in System.nanoTime(). */
    private final List<Long> reachedAt = new ArrayList<>();

    /** When every shard had published its final version, in System.nanoTime(); -1 before. */
    private long finishedAt = -1;

    private final Thread thread;
    private volatile boolean closed;
    private volatile RuntimeException failure;

    JobProgress(
            final Topic<String, ModelShard> model,
            final Properties client,
            final String job,
            final int shards,
            final long lastClock,
            final boolean byMinClock) {
        this.model = model;
        this.client = new Properties();
        this.client.putAll(client);
        this.client.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        this.job = job;
        this.shards = shards;
        this.lastClock = lastClock;
        this.byMinClock = byMinClock;
        this.thread = new Thread(this::follow, "chaos-progress-" + job);
        this.thread.setDaemon(true);
    }

    /** The progress of {@code job} on {@code model}. */
    static JobProgress of(final Topic<String, ModelShard> model, final Properties client, final ChaosJob job) {
        return new JobProgress(
                model, client, job.name(), job.spec().getShards(), job.clocks(), job.kind() == ChaosJob.Kind.SSP);
    }

    void start() {
        thread.start();
    }

    /** The newest clock every shard has reached (its model version), -1 before version 0. */
    synchronized long clock() {
        return reachedAt.size() - 1;
    }

    /** Whether every shard has published the job's final version. */
    synchronized boolean finished() {
        return finals.size() == shards;
    }

    /** When every shard had published its final version, in {@link System#nanoTime()}; -1 if not yet. */
    synchronized long finishedAt() {
        return finishedAt;
    }

    /** When every shard first reached {@code clock}, in {@link System#nanoTime()}; -1 if not yet. */
    synchronized long reachedAt(final int clock) {
        return clock < reachedAt.size() ? reachedAt.get(clock) : -1;
    }

    /** The intervals between consecutive clocks, in milliseconds. */
    synchronized List<Double> clockIntervalsMs() {
        final List<Double> intervals = new ArrayList<>();
        for (int i = 1; i < reachedAt.size(); i++) {
            intervals.add((reachedAt.get(i) - reachedAt.get(i - 1)) / 1e6);
        }
        return intervals;
    }

    /** Waits until the clock passes {@code clock} or the job finishes; false at the timeout. */
    boolean awaitPast(final long clock, final Duration timeout) throws InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            failIfBroken();
            if (clock() > clock || finished()) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    /** Waits until every shard has its final version; false at the timeout. */
    boolean awaitFinished(final Duration timeout) throws InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            failIfBroken();
            if (finished()) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    private void failIfBroken() {
        if (failure != null) {
            throw failure;
        }
    }

    private void follow() {
        try (TopicReader<String, ModelShard> reader = new TopicReader<>(model, client)) {
            while (!closed) {
                reader.poll(Duration.ofMillis(100), record -> offer(record.key(), record.value()));
            }
        } catch (final RuntimeException e) {
            if (!closed) {
                failure = e;
            }
        }
    }

    private synchronized void offer(final String key, final ModelShard shard) {
        if (shard == null
                || !job.equals(shard.getJob())
                || shard.getShards() != shards
                || shard.getVersion() < 0
                || clockOf(shard) < 0
                || clockOf(shard) > lastClock) {
            return;
        }
        if (shard.getFinalVersion()) {
            finals.add(key);
            if (finals.size() == shards && finishedAt < 0) {
                finishedAt = System.nanoTime();
            }
        }
        newest.merge(key, clockOf(shard), Math::max);
        if (newest.size() < shards) {
            return;
        }
        final long common =
                newest.values().stream().mapToLong(Long::longValue).min().orElse(-1);
        final long now = System.nanoTime();
        while (reachedAt.size() <= common) {
            reachedAt.add(now);
        }
    }

    private long clockOf(final ModelShard shard) {
        return byMinClock ? shard.getMinClock() : shard.getVersion();
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.join(Duration.ofSeconds(10).toMillis());
    }
}
