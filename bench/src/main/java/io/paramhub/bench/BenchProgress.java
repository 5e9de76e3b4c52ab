package io.paramhub.bench;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.embedded.RunListener;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Shows one policy's run as it goes: a bar of the worker iterations done, seconds since start and the
 * newest test metric; redrawn in place on a terminal, every tenth otherwise.
 */
final class BenchProgress implements RunListener {

    private static final int WIDTH = 30;

    private final PrintStream out;
    private final boolean terminal;
    private final String label;
    private final long total;
    private final String metric;
    private final Supplier<List<MetricSample>> samples;
    private final long started = System.nanoTime();
    private long done;
    private int lastStep = -1;

    BenchProgress(
            final PrintStream out,
            final boolean terminal,
            final String label,
            final long total,
            final String metric,
            final Supplier<List<MetricSample>> samples) {
        this.out = out;
        this.terminal = terminal;
        this.label = label;
        this.total = Math.max(1, total);
        this.metric = metric;
        this.samples = samples;
    }

    @Override
    public synchronized void onIteration(final IterationTelemetry telemetry) {
        done++;
        final int percent = (int) (100 * done / total);
        final int step = terminal ? percent : percent / 10 * 10;
        if (step == lastStep || !terminal && percent % 10 != 0 && done != total) {
            return;
        }
        lastStep = step;
        final List<MetricSample> seen = samples.get();
        final String newest = seen.isEmpty()
                ? "-"
                : String.format(Locale.ROOT, "%.4f", seen.get(seen.size() - 1).metric());
        final int filled = (int) (WIDTH * done / total);
        out.printf(
                Locale.ROOT,
                "%s  %-9s [%s%s] %3d%%  %6.1f s  %s %s%s",
                terminal ? "\r" : "",
                label,
                "#".repeat(filled),
                " ".repeat(WIDTH - filled),
                percent,
                (System.nanoTime() - started) / 1e9,
                metric,
                newest,
                terminal ? "" : System.lineSeparator());
    }

    /** Ends the in-place line. */
    void finish() {
        if (terminal) {
            out.println();
        }
    }
}
