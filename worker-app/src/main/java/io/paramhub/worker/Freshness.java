package io.paramhub.worker;

import io.paramhub.topology.client.ModelView;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How fresh a topic-mode worker's model is: for each example it trained, the time from the example's append to
 * the moment the worker first reads a model version that includes it (its clock applied: the model's minClock
 * beyond it, or this worker's clocks in the model). Pending clocks wait here with their examples' append times.
 * Reads and writes no topic.
 */
final class Freshness {

    /** At most this many freshness values go with one clock's telemetry. */
    static final int MAX_REPORTED = 256;

    private final String workerId;
    private final Map<Long, long[]> pending = new TreeMap<>();

    Freshness(final String workerId) {
        this.workerId = workerId;
    }

    /** Clock {@code clock} trained examples appended at {@code timestamps} (ms since the epoch). */
    void trained(final long clock, final long[] timestamps) {
        if (timestamps.length > 0) {
            pending.put(clock, timestamps);
        }
    }

    /**
     * The freshness (ms) of the examples of the pending clocks that {@code model}, read at {@code nowMs}, includes,
     * at most {@link #MAX_REPORTED} of them (an even stride when there are more).
     */
    List<Integer> included(final ModelView model, final long nowMs) {
        final List<Integer> values = new ArrayList<>();
        final long minClock = model.minClock();
        final long own = model.appliedClocks(workerId);
        final Iterator<Map.Entry<Long, long[]>> clocks = pending.entrySet().iterator();
        while (clocks.hasNext()) {
            final Map.Entry<Long, long[]> clock = clocks.next();
            if (clock.getKey() >= minClock && clock.getKey() >= own) {
                break;
            }
            for (final long appended : clock.getValue()) {
                values.add((int) Math.max(0, Math.min(Integer.MAX_VALUE, nowMs - appended)));
            }
            clocks.remove();
        }
        if (values.size() <= MAX_REPORTED) {
            return values;
        }
        final List<Integer> strided = new ArrayList<>(MAX_REPORTED);
        for (int i = 0; i < MAX_REPORTED; i++) {
            strided.add(values.get((int) ((long) i * values.size() / MAX_REPORTED)));
        }
        return strided;
    }
}
