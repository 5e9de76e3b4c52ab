package io.paramhub.local;

import io.paramhub.avro.IterationTelemetry;

/** Told what a {@link TrainingRun} does, for progress displays. Called from several threads. */
public interface RunListener {

    RunListener NONE = new RunListener() { };

    default void onStarted(final TrainingRun.Plan plan) {
    }

    default void onIteration(final IterationTelemetry telemetry) {
    }

    default void onEpoch(final EpochResult epoch) {
    }
}
