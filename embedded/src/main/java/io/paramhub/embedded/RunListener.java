package io.paramhub.embedded;

import io.paramhub.avro.IterationTelemetry;

/** Told what a {@link TrainingRun} does, for progress displays. Called from several threads. */
public interface RunListener {

    RunListener NONE = new RunListener() {};

    default void onStarted(final TrainingRun.Job job) {}

    default void onIteration(final IterationTelemetry telemetry) {}

    default void onEpoch(final EpochResult epoch) {}

    /** The orchestrator's dashboard is up at {@code url}, until the run ends. */
    default void onDashboard(final String url) {}

    /** Tells {@code first}, then {@code second}. */
    static RunListener both(final RunListener first, final RunListener second) {
        return new RunListener() {
            @Override
            public void onStarted(final TrainingRun.Job job) {
                first.onStarted(job);
                second.onStarted(job);
            }

            @Override
            public void onIteration(final IterationTelemetry telemetry) {
                first.onIteration(telemetry);
                second.onIteration(telemetry);
            }

            @Override
            public void onEpoch(final EpochResult epoch) {
                first.onEpoch(epoch);
                second.onEpoch(epoch);
            }

            @Override
            public void onDashboard(final String url) {
                first.onDashboard(url);
                second.onDashboard(url);
            }
        };
    }
}
