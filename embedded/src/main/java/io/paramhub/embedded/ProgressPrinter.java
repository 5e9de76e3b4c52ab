package io.paramhub.embedded;

import io.paramhub.avro.GradientEncoding;
import io.paramhub.avro.IterationTelemetry;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Shows a run as it goes: a progress bar per epoch with the running loss (redrawn in place on a
 * terminal, a few lines otherwise) and the test metric after every epoch.
 */
public final class ProgressPrinter implements RunListener {

    private static final int WIDTH = 30;

    private final PrintStream out;
    private final boolean terminal;
    private final AtomicLong finished = new AtomicLong();
    private volatile TrainingRun.Job job;
    private double lossSum;
    private long samples;
    private long lastDrawn = -1;

    public ProgressPrinter(final PrintStream out, final boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    @Override
    public void onStarted(final TrainingRun.Job started) {
        this.job = started;
        out.printf(
                Locale.ROOT,
                "job %s: %s on %s, %d workers, %s, batch %d, %d epochs x %d iterations, %s lr %s %s%n",
                started.spec().getJob(),
                started.spec().getModel(),
                started.spec().getDataset(),
                started.spec().getExpectedWorkers(),
                started.spec().getSyncMode(),
                started.spec().getGlobalBatch(),
                started.spec().getEpochs(),
                started.iterationsPerEpoch(),
                started.spec().getOptimizer().name().toLowerCase(Locale.ROOT),
                started.spec().getLearningRate(),
                started.spec().getLearningRateSchedule().name().toLowerCase(Locale.ROOT));
        if (started.spec().getPipelineDepth() > 0) {
            out.printf(
                    Locale.ROOT,
                    "pipelined BSP: clock c computes on model version c - %d%n",
                    started.spec().getPipelineDepth());
        }
        if (started.spec().getGradientEncoding() != GradientEncoding.FLOAT32) {
            out.printf(
                    Locale.ROOT,
                    "gradients travel as %s with error feedback: half the bytes, not bit-identical to float32%n",
                    started.spec().getGradientEncoding().name().toLowerCase(Locale.ROOT));
        }
    }

    @Override
    public void onDashboard(final String url) {
        out.println("dashboard: " + url + " (up while training)");
    }

    @Override
    public synchronized void onIteration(final IterationTelemetry telemetry) {
        final TrainingRun.Job current = job;
        // in a hybrid job the last pipeline stage alone computes the loss of the samples all stages compute
        if (current == null || telemetry.getStage() == current.spec().getStages() - 1) {
            lossSum += telemetry.getLoss();
            samples += telemetry.getSamples();
        }
        final long workerIterations = finished.incrementAndGet();
        if (current == null) {
            return;
        }
        final long clocks = workerIterations / current.spec().getExpectedWorkers();
        final long perEpoch = current.iterationsPerEpoch();
        final long inEpoch = clocks % perEpoch;
        final int percent = (int) (100 * inEpoch / perEpoch);
        final long step = Math.max(1, terminal ? perEpoch / 100 : perEpoch / 4);
        if (inEpoch == 0 || clocks == lastDrawn || inEpoch % step != 0) {
            return;
        }
        lastDrawn = clocks;
        final int filled = (int) (WIDTH * inEpoch / perEpoch);
        final String bar = "#".repeat(filled) + " ".repeat(WIDTH - filled);
        out.printf(
                Locale.ROOT,
                "%sepoch %d/%d [%s] %3d%%  loss %.4f%s",
                terminal ? "\r" : "",
                clocks / perEpoch + 1,
                current.spec().getEpochs(),
                bar,
                percent,
                lossSum / Math.max(1, samples),
                terminal ? "" : System.lineSeparator());
        lossSum = 0;
        samples = 0;
    }

    @Override
    public synchronized void onEpoch(final EpochResult epoch) {
        out.printf(
                Locale.ROOT,
                "%sepoch %d done at %.1f s: train loss %.4f, test %s %.4f%n",
                terminal ? "\r" : "",
                epoch.epoch(),
                epoch.seconds(),
                epoch.trainLoss(),
                epoch.metric(),
                epoch.testMetric());
    }
}
