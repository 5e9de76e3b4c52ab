package io.paramhub.bench.online;

import io.paramhub.embedded.online.OnlineTally;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The PNG plots beside {@code paramhub bench online}'s report: the rates (Kafka's producer, the workers on the
 * backlog, the half-rate stream), and per prequential window of the half-rate run its freshness p99 and accuracy.
 */
final class OnlinePlots {

    static final String RATES = "online-rates.png";
    static final String WINDOWS = "online-windows.png";

    private OnlinePlots() {}

    static void write(
            final Path dir,
            final double producerRate,
            final double sustainedRate,
            final double halfRate,
            final List<OnlineTally.Window> windows)
            throws IOException {
        rates(dir.resolve(RATES), producerRate, sustainedRate, halfRate);
        windows(dir.resolve(WINDOWS), windows);
    }

    private static void rates(final Path file, final double producer, final double sustained, final double half)
            throws IOException {
        final CategoryChart chart = new CategoryChartBuilder()
                .width(900)
                .height(520)
                .title("Examples a second on one broker")
                .yAxisTitle("examples a second")
                .build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setLegendVisible(false);
        chart.addSeries(
                "rate",
                List.of("Kafka's producer", "4 workers on the backlog", "the half-rate stream"),
                List.of(producer, sustained, half));
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void windows(final Path file, final List<OnlineTally.Window> windows) throws IOException {
        final XYChart chart = new XYChartBuilder()
                .width(1000)
                .height(560)
                .title("At half the sustained rate, per prequential window")
                .xAxisTitle("examples trained")
                .yAxisTitle("freshness p99 (ms)")
                .build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        final List<Double> examples = new ArrayList<>();
        final List<Double> freshness = new ArrayList<>();
        final List<Double> accuracy = new ArrayList<>();
        long seen = 0;
        for (final OnlineTally.Window window : windows) {
            seen += window.examples();
            examples.add((double) seen);
            freshness.add(Double.isNaN(window.freshnessP99Ms()) ? 0 : window.freshnessP99Ms());
            accuracy.add(window.accuracy());
        }
        if (examples.isEmpty()) {
            return;
        }
        chart.addSeries("freshness p99", examples, freshness);
        chart.addSeries("prequential accuracy", examples, accuracy).setYAxisGroup(1);
        chart.setYAxisGroupTitle(1, "prequential accuracy");
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
