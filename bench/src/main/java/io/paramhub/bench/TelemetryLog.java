package io.paramhub.bench;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.embedded.RunListener;
import java.util.ArrayList;
import java.util.List;

/** Keeps every worker iteration of one run, stamped with when it was reported. */
final class TelemetryLog implements RunListener {

    private final List<IterationRecord> iterations = new ArrayList<>();

    @Override
    public void onIteration(final IterationTelemetry telemetry) {
        final long now = System.nanoTime();
        synchronized (iterations) {
            iterations.add(IterationRecord.of(telemetry, now));
        }
    }

    List<IterationRecord> iterations() {
        synchronized (iterations) {
            return List.copyOf(iterations);
        }
    }
}
