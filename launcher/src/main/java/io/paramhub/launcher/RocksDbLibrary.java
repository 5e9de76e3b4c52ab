package io.paramhub.launcher;

import java.util.concurrent.atomic.AtomicBoolean;
import org.rocksdb.RocksDB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads RocksDB's native library on a thread of its own, so that a Streams app's first persistent store (the
 * aggregator's and the orchestrator's {@code job-spec-store}) does not wait for it inside the app's first
 * rebalance. Loading unpacks the library from its jar into a temporary file and links it: 170-220 ms on the
 * developers' machine (docs/benchmarks-history.md, "The first rebalance: RocksDB's library ahead"), which every
 * start paid while its tasks were being created, before the first job could begin.
 */
public final class RocksDbLibrary {

    private static final Logger log = LoggerFactory.getLogger(RocksDbLibrary.class);
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private RocksDbLibrary() {}

    /**
     * Starts loading the library, once a JVM, and returns at once. Kafka Streams loads it itself when it opens a
     * store, and waits there for a load under way. A load that fails here is logged with its cause: a store opened
     * while it was failing finds no library, and fails with an {@code UnsatisfiedLinkError} that does not say why.
     */
    public static void loadInBackground() {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        final Thread loader = new Thread(RocksDbLibrary::load, "rocksdb-library-loader");
        loader.setDaemon(true);
        loader.start();
    }

    private static void load() {
        try {
            RocksDB.loadLibrary();
        } catch (final RuntimeException | LinkageError e) {
            log.warn("could not load RocksDB's native library, which the app's job-spec-store needs", e);
        }
    }
}
