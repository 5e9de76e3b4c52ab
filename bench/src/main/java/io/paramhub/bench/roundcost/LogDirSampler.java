package io.paramhub.bench.roundcost;

import java.time.Duration;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples the cluster's log-dir sizes ({@link LogDirSizes}) into a {@link LogGrowth}: once when started, every
 * {@code interval} on a daemon thread of its own, and once more when stopped. Sampling often keeps what
 * compaction or retention drops during a run out of the bytes written only for the interval in which it
 * happened. Reads cluster metadata only.
 */
public final class LogDirSampler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LogDirSampler.class);

    private final Admin admin;
    private final Duration interval;
    private final LogGrowth growth = new LogGrowth();
    private Thread thread;
    private volatile boolean running;

    public LogDirSampler(final Admin admin, final Duration interval) {
        this.admin = admin;
        this.interval = interval;
    }

    /** Takes the first sample, then samples in the background. */
    public synchronized void start() {
        if (thread != null) {
            throw new IllegalStateException("already started");
        }
        growth.offer(LogDirSizes.read(admin));
        running = true;
        thread = new Thread(this::sample, "round-cost-log-dirs");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops sampling, takes the last sample and returns the growth since the first. */
    public synchronized LogGrowth stop() throws InterruptedException {
        halt();
        growth.offer(LogDirSizes.read(admin));
        return growth;
    }

    private void sample() {
        while (running) {
            try {
                Thread.sleep(interval.toMillis());
                if (running) {
                    growth.offer(LogDirSizes.read(admin));
                }
            } catch (final InterruptedException e) {
                return;
            } catch (final RuntimeException e) {
                if (!running) {
                    return;
                }
                // a missed sample only makes the figures coarser: the next one still counts the growth
                log.warn("a log-dir sample failed: {}", e.getMessage());
            }
        }
    }

    private void halt() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.interrupt();
            thread.join();
        }
    }

    @Override
    public synchronized void close() throws InterruptedException {
        halt();
    }
}
