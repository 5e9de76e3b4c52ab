package io.paramhub.embedded.online;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.OnlineClock;
import io.paramhub.embedded.Percentiles;
import io.paramhub.worker.IterationListener;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the workers of a topic-mode job report, added up as their telemetry comes ({@code IterationTelemetry.online}):
 * examples trained and set aside, prequential windows of at least {@code window} examples (a window closes with
 * the first clock report that fills it, so it may hold a few more; the last one, partial, closes at the end), the
 * freshness of the examples, and the largest consumer lag a worker reported. Reads and writes no topic.
 */
public final class OnlineTally implements IterationListener {

    /**
     * One prequential window: its examples, the fraction classified correctly before training, the mean loss, and
     * the p99 of the freshness values reported with its clocks (NaN when none was).
     */
    public record Window(long examples, double accuracy, double loss, double freshnessP99Ms) {}

    /** The run's totals: examples, dead letters, windows, freshness p50 and p99 (ms), and the largest lag. */
    public record Summary(
            long examples,
            long deadLetters,
            List<Window> windows,
            double freshnessP50Ms,
            double freshnessP99Ms,
            long freshnessSamples,
            long maxLag) {

        /** The last window, or null when nothing was trained. */
        public Window last() {
            return windows.isEmpty() ? null : windows.get(windows.size() - 1);
        }
    }

    private final int window;
    private final Consumer<Window> onWindow;
    private final List<Window> windows = new ArrayList<>();
    private final List<Double> freshness = new ArrayList<>();
    private long examples;
    private long deadLetters;
    private long maxLag = -1;
    private long windowExamples;
    private long windowCorrect;
    private double windowLoss;
    private final List<Double> windowFreshness = new ArrayList<>();

    /** A tally with windows of {@code window} examples, each told to {@code onWindow} as it closes. */
    public OnlineTally(final int window, final Consumer<Window> onWindow) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be >= 1, not " + window);
        }
        this.window = window;
        this.onWindow = onWindow;
    }

    @Override
    public void onIteration(final IterationTelemetry telemetry) {
        final OnlineClock clock = telemetry.getOnline();
        if (clock == null) {
            return;
        }
        final Window closed;
        synchronized (this) {
            examples += clock.getExamples();
            deadLetters += clock.getDeadLetters();
            maxLag = Math.max(maxLag, clock.getLag());
            for (final int ms : clock.getFreshnessMs()) {
                freshness.add((double) ms);
                windowFreshness.add((double) ms);
            }
            windowExamples += clock.getExamples();
            windowCorrect += clock.getCorrect();
            windowLoss += clock.getPredictionLoss();
            closed = windowExamples >= window ? close() : null;
        }
        if (closed != null) {
            onWindow.accept(closed);
        }
    }

    /** The totals, the partial last window closed. */
    public Summary summary() {
        final Window partial;
        final Summary summary;
        synchronized (this) {
            partial = windowExamples > 0 ? close() : null;
            final List<Double> sorted = new ArrayList<>(freshness);
            sorted.sort(null);
            summary = new Summary(
                    examples,
                    deadLetters,
                    List.copyOf(windows),
                    Percentiles.of(sorted, 50),
                    Percentiles.of(sorted, 99),
                    sorted.size(),
                    maxLag);
        }
        if (partial != null) {
            onWindow.accept(partial);
        }
        return summary;
    }

    private Window close() {
        windowFreshness.sort(null);
        final Window closed = new Window(
                windowExamples,
                (double) windowCorrect / windowExamples,
                windowLoss / windowExamples,
                Percentiles.of(windowFreshness, 99));
        windowFreshness.clear();
        windows.add(closed);
        windowExamples = 0;
        windowCorrect = 0;
        windowLoss = 0;
        return closed;
    }
}
