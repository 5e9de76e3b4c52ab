package io.paramhub.topology.aggregator;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.SyncMode;

/**
 * How many versions a shard may have moved on since the version a gradient was computed on, for the
 * gradient still to be applied: the job's {@code maxStaleness}, or by default 0 under BSP (every
 * gradient of clock c is computed on version c), (2s + 2) x workers under SSP(s), unbounded under ASP.
 */
final class StalenessBound {

    private StalenessBound() {
    }

    static long of(final JobSpec spec) {
        if (spec.getMaxStaleness() >= 0) {
            return spec.getMaxStaleness();
        }
        if (spec.getSyncMode() == SyncMode.BSP) {
            return 0;
        }
        if (spec.getSyncMode() == SyncMode.SSP) {
            return (2L * spec.getStaleness() + 2) * spec.getExpectedWorkers();
        }
        return Long.MAX_VALUE;
    }
}
