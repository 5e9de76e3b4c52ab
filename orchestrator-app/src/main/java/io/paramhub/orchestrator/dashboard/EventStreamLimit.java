package io.paramhub.orchestrator.dashboard;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many dashboard event streams ({@code GET /jobs/{job}/events}) may be open at once on one orchestrator,
 * and how many are: each open stream holds a connection and a timer, so a page left open in many tabs, or a
 * client opening streams in a loop, cannot pile them up. No topic in or out.
 */
final class EventStreamLimit {

    private final int max;
    private final AtomicInteger open = new AtomicInteger();

    /** @param max streams allowed at once, at least 1 */
    EventStreamLimit(final int max) {
        if (max < 1) {
            throw new IllegalArgumentException("at least one event stream must be allowed, not " + max);
        }
        this.max = max;
    }

    /** Counts one more open stream and answers true, or answers false when {@link #max} are open already. */
    boolean tryOpen() {
        while (true) {
            final int now = open.get();
            if (now >= max) {
                return false;
            }
            if (open.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Counts one stream closed; call once per successful {@link #tryOpen}. */
    void closed() {
        open.decrementAndGet();
    }

    int max() {
        return max;
    }

    int open() {
        return open.get();
    }
}
