package io.paramhub.topology.aggregator;

import java.util.HashMap;
import java.util.Map;

/** Measures the processing wall time a shard task spends on each shard between its published versions. */
final class BusyTimer implements RoundTimer {

    private final Map<String, Long> busyNanos = new HashMap<>();
    private long started = -1;

    @Override
    public void begin() {
        started = System.nanoTime();
    }

    @Override
    public void end(final String key) {
        if (started < 0 || key == null) {
            return;
        }
        busyNanos.merge(key, System.nanoTime() - started, Long::sum);
        started = -1;
    }

    @Override
    public Round round(final String key) {
        final long now = System.nanoTime();
        final long busy = busyNanos.getOrDefault(key, 0L) + (started >= 0 ? now - started : 0);
        busyNanos.remove(key);
        if (started >= 0) {
            started = System.nanoTime();
        }
        return new Round(busy / 1e6, 0);
    }

    @Override
    public void forget(final String key) {
        busyNanos.remove(key);
    }
}
