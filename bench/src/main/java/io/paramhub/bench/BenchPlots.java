package io.paramhub.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The bench's PNG plots: the test metric over training time per policy (Fig. 5 of the
 * orchestrator's paper), the standard deviation of iteration time over training time per policy (its Fig. 6), and a per-worker
 * timeline of compute and wait, one panel per policy.
 */
final class BenchPlots {

    static final String METRIC = "metric-over-time.png";
    static final String ITERATION_SD = "iteration-time-sd.png";
    static final String TIMELINE = "worker-timeline.png";

    private static final Color COMPUTE = new Color(0x2E7D32);
    private static final Color WAIT = new Color(0xEF9A9A);

    private BenchPlots() {}

    /** Writes the three plots into {@code dir}; returns their names by kind. */
    static Map<String, String> write(
            final Path dir, final BenchSettings settings, final List<PolicyRun> runs, final double timelineSeconds)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        metric(dir.resolve(METRIC), settings, runs);
        iterationSd(dir.resolve(ITERATION_SD), settings, runs);
        timeline(dir.resolve(TIMELINE), settings, runs, timelineSeconds);
        final Map<String, String> files = new LinkedHashMap<>();
        files.put("metric_over_time", METRIC);
        files.put("iteration_time_sd", ITERATION_SD);
        files.put("worker_timeline", TIMELINE);
        return files;
    }

    private static void metric(final Path file, final BenchSettings settings, final List<PolicyRun> runs)
            throws IOException {
        final String metric = settings.task().metric();
        final XYChart chart = chart(
                String.format(
                        Locale.ROOT,
                        "Test %s over training time: %s, %d workers (%s)",
                        metric,
                        settings.scenario().label(),
                        settings.workers(),
                        settings.task().name()),
                "test " + metric);
        chart.getStyler().setYAxisLogarithmic(settings.task().lowerIsBetter());
        double longest = 0;
        for (final PolicyRun run : runs) {
            final List<Double> x = new ArrayList<>();
            final List<Double> y = new ArrayList<>();
            for (final PolicyOutcome.MetricPoint point : run.outcome().metricOverTime()) {
                if (!settings.task().lowerIsBetter() || point.metric() > 0) {
                    x.add(point.timeS());
                    y.add(point.metric());
                }
            }
            if (!x.isEmpty()) {
                line(chart.addSeries(run.policy().label(), x, y));
                longest = Math.max(longest, x.get(x.size() - 1));
            }
        }
        if (longest > 0) {
            final XYSeries target = chart.addSeries(
                    String.format(Locale.ROOT, "target %s", settings.target()),
                    List.of(0.0, longest),
                    List.of(settings.target(), settings.target()));
            line(target);
            target.setLineColor(Color.GRAY);
            target.setLineStyle(
                    new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void iterationSd(final Path file, final BenchSettings settings, final List<PolicyRun> runs)
            throws IOException {
        final XYChart chart = chart(
                String.format(
                        Locale.ROOT,
                        "SD of iteration time (wait + compute, all workers) over training time: %s",
                        settings.scenario().label()),
                "iteration-time SD (ms)");
        for (final PolicyRun run : runs) {
            final List<Double> x = new ArrayList<>();
            final List<Double> y = new ArrayList<>();
            for (final PolicyOutcome.IterationWindow window : run.outcome().iterTimeOverTime()) {
                x.add((window.fromS() + window.toS()) / 2);
                y.add(window.sdMs());
            }
            if (!x.isEmpty()) {
                chart.addSeries(run.policy().label(), x, y).setMarker(SeriesMarkers.CIRCLE);
            }
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static XYChart chart(final String title, final String yTitle) {
        final XYChart chart = new XYChartBuilder()
                .width(1000)
                .height(560)
                .title(title)
                .xAxisTitle("seconds since the first compute of clock 0")
                .yAxisTitle(yTitle)
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridLinesVisible(true);
        return chart;
    }

    private static void line(final XYSeries series) {
        series.setMarker(SeriesMarkers.NONE);
    }

    /**
     * One panel per policy, one row per worker: compute in green, waiting for the model in pink, over
     * {@code seconds} around the middle of the policy's training time.
     */
    private static void timeline(
            final Path file, final BenchSettings settings, final List<PolicyRun> runs, final double seconds)
            throws IOException {
        final int width = 1100;
        final int left = 110;
        final int right = 20;
        final int rowHeight = 18;
        final int panelGap = 46;
        final int workers = settings.workers();
        final int panelHeight = workers * rowHeight;
        final int height = 60 + runs.size() * (panelHeight + panelGap) + 30;
        final BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(
                String.format(
                        Locale.ROOT,
                        "Per-worker timeline, %.1f s around the middle of each run: %s",
                        seconds,
                        settings.scenario().label()),
                left,
                24);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setColor(COMPUTE);
        g.fillRect(left, 36, 14, 10);
        g.setColor(Color.BLACK);
        g.drawString("compute", left + 18, 46);
        g.setColor(WAIT);
        g.fillRect(left + 90, 36, 14, 10);
        g.setColor(Color.BLACK);
        g.drawString("waiting for the model", left + 108, 46);
        final double plotWidth = width - left - right;
        int top = 60 + panelGap - 20;
        for (final PolicyRun run : runs) {
            final List<IterationRecord> iterations = run.iterations();
            final long origin = iterations.stream()
                    .mapToLong(IterationRecord::computeStartNanos)
                    .min()
                    .orElse(0);
            final double train = run.outcome().trainTimeS();
            final double from = Math.max(0, train / 2 - seconds / 2);
            final double to = Math.min(train, from + seconds);
            g.setColor(Color.BLACK);
            g.drawString(
                    String.format(
                            Locale.ROOT,
                            "%s  (%.1f-%.1f s of %.1f s)",
                            run.policy().label(),
                            from,
                            to,
                            train),
                    left,
                    top - 6);
            final List<String> names = new ArrayList<>(new TreeSet<>(
                    iterations.stream().map(IterationRecord::worker).toList()));
            for (int row = 0; row < names.size(); row++) {
                final int y = top + row * rowHeight;
                g.setColor(Color.BLACK);
                g.drawString(names.get(row), 10, y + rowHeight - 5);
                g.setColor(new Color(0xF5F5F5));
                g.fillRect(left, y + 2, (int) plotWidth, rowHeight - 4);
                for (final IterationRecord iteration : iterations) {
                    if (!iteration.worker().equals(names.get(row))) {
                        continue;
                    }
                    bar(
                            g,
                            WAIT,
                            iteration.waitStartNanos(),
                            iteration.computeStartNanos(),
                            origin,
                            from,
                            to,
                            left,
                            plotWidth,
                            y,
                            rowHeight);
                    bar(
                            g,
                            COMPUTE,
                            iteration.computeStartNanos(),
                            iteration.endNanos(),
                            origin,
                            from,
                            to,
                            left,
                            plotWidth,
                            y,
                            rowHeight);
                }
            }
            top += panelHeight + panelGap;
        }
        g.setColor(Color.DARK_GRAY);
        g.drawString("x: time within each panel's window; each row is one worker", left, height - 10);
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static void bar(
            final Graphics2D g,
            final Color color,
            final long startNanos,
            final long endNanos,
            final long origin,
            final double from,
            final double to,
            final int left,
            final double plotWidth,
            final int y,
            final int rowHeight) {
        final double start = Math.max(from, (startNanos - origin) / 1e9);
        final double end = Math.min(to, (endNanos - origin) / 1e9);
        if (end <= start || to <= from) {
            return;
        }
        final int x0 = left + (int) Math.round((start - from) / (to - from) * plotWidth);
        final int x1 = left + (int) Math.round((end - from) / (to - from) * plotWidth);
        g.setColor(color);
        g.fillRect(x0, y + 2, Math.max(1, x1 - x0), rowHeight - 4);
    }
}
