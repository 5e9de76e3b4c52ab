package io.paramhub.embedded;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Has a fresh embedded broker create its internal topics, {@code __consumer_offsets} and {@code __transaction_state},
 * as a running cluster already has them: a broker creates each when a client first looks for a group or a
 * transaction coordinator, and on a fresh broker that first look cost the aggregator's first rebalance about
 * 0.6 s and its first transaction about 0.3 s (docs/benchmarks-history.md, "Round cost, continued: huge pages, fewer
 * copies, socket buffers"). Started while the
 * embedded schema registry starts; a warm-up that fails only costs that time back, so it is logged, not thrown.
 */
final class InternalTopicsWarmup implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(InternalTopicsWarmup.class);
    private static final String PROBE = "paramhub-embedded-warmup";

    private final Admin admin;
    private final KafkaFuture<?> groups;
    private final KafkaFuture<?> transactions;

    private InternalTopicsWarmup(final Admin admin) {
        this.admin = admin;
        this.groups = admin.describeConsumerGroups(List.of(PROBE)).all();
        this.transactions = admin.describeTransactions(List.of(PROBE)).all();
    }

    /** Looks for a group and a transaction coordinator on the broker at {@code bootstrapServers}, without waiting. */
    static InternalTopicsWarmup start(final String bootstrapServers) {
        return new InternalTopicsWarmup(
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)));
    }

    /** Waits until both coordinators answered (at most {@code seconds}); the probes' own groups and ids do not exist. */
    void await(final long seconds) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        awaitOne(groups, GroupIdNotFoundException.class, "group", deadline);
        awaitOne(transactions, TransactionalIdNotFoundException.class, "transaction", deadline);
    }

    private static void awaitOne(
            final KafkaFuture<?> probe,
            final Class<? extends Exception> expected,
            final String coordinator,
            final long deadline) {
        try {
            probe.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (final ExecutionException e) {
            if (!expected.isInstance(e.getCause())) {
                log.info(
                        "the embedded broker's {} coordinator did not answer its warm-up: {}",
                        coordinator,
                        e.getCause().toString());
            }
        } catch (final TimeoutException e) {
            log.info(
                    "the embedded broker's {} coordinator is still loading; the first client will wait for it",
                    coordinator);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
