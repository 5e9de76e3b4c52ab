package io.paramhub.worker;

import io.paramhub.avro.IterationTelemetry;

/** Told of each iteration a worker finishes, with the telemetry it published. */
@FunctionalInterface
public interface IterationListener {

    IterationListener NONE = telemetry -> {};

    void onIteration(IterationTelemetry telemetry);
}
