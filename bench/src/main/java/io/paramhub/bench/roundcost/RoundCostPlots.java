package io.paramhub.bench.roundcost;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The round-cost bench's PNG plots, drawn with XChart as the policy bench's are: bytes written per round per
 * topic per model (grouped bars, log scale), and a round's time split into compute, barrier wait and the rest,
 * per model (stacked bars).
 */
final class RoundCostPlots {

    static final String BYTES = "bytes-per-round.png";
    static final String ROUND_TIME = "round-time.png";

    /** Topics that get fewer bytes than this a round in every model are left out of the bytes plot. */
    static final double SMALLEST_BYTES_PER_ROUND = 1.0;

    private RoundCostPlots() {}

    /** Writes both plots into {@code dir}; returns their file names by kind. */
    static Map<String, String> write(final Path dir, final List<ModelCost> models) throws IOException {
        System.setProperty("java.awt.headless", "true");
        bytes(dir.resolve(BYTES), models);
        roundTime(dir.resolve(ROUND_TIME), models);
        final Map<String, String> files = new LinkedHashMap<>();
        files.put("bytes_per_round", BYTES);
        files.put("round_time", ROUND_TIME);
        return files;
    }

    private static void bytes(final Path file, final List<ModelCost> models) throws IOException {
        final CategoryChart chart = new CategoryChartBuilder()
                .width(1200)
                .height(700)
                .title("Bytes the broker wrote per BSP round, per topic (log scale)")
                .xAxisTitle("topic")
                .yAxisTitle("KiB per round")
                .build();
        style(chart);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setXAxisLabelRotation(30);
        final List<String> topics = topics(models);
        double smallest = Double.MAX_VALUE;
        for (final ModelCost model : models) {
            final List<Double> kib = new ArrayList<>();
            for (final String topic : topics) {
                final double perRound = model.bytesPerRound(topic);
                // a log axis has no 0: a topic this model did not write to has no bar
                kib.add(perRound >= SMALLEST_BYTES_PER_ROUND ? perRound / 1024 : null);
                if (perRound >= SMALLEST_BYTES_PER_ROUND) {
                    smallest = Math.min(smallest, perRound / 1024);
                }
            }
            chart.addSeries(model.model(), topics, kib);
        }
        // bars start at the axis' minimum, which a log axis needs above 0: the decade below the smallest bar
        chart.getStyler()
                .setYAxisMin(smallest == Double.MAX_VALUE ? 1e-3 : Math.pow(10, Math.floor(Math.log10(smallest))));
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Every topic some model wrote at least {@link #SMALLEST_BYTES_PER_ROUND} a round to, most bytes first. */
    static List<String> topics(final List<ModelCost> models) {
        final Map<String, Double> largest = new LinkedHashMap<>();
        for (final ModelCost model : models) {
            for (final TopicBytes topic : model.topics()) {
                largest.merge(topic.topic(), topic.perRound(model.rounds()), Math::max);
            }
        }
        final Set<String> topics = new LinkedHashSet<>();
        largest.entrySet().stream()
                .filter(entry -> entry.getValue() >= SMALLEST_BYTES_PER_ROUND)
                .sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()))
                .forEach(entry -> topics.add(entry.getKey()));
        return List.copyOf(topics);
    }

    private static void roundTime(final Path file, final List<ModelCost> models) throws IOException {
        final CategoryChart chart = new CategoryChartBuilder()
                .width(800)
                .height(560)
                .title("A BSP round's time: compute, barrier wait and the rest (means per worker iteration)")
                .xAxisTitle("model")
                .yAxisTitle("ms per round")
                .build();
        style(chart);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setStacked(true);
        final List<String> names = models.stream().map(ModelCost::model).toList();
        chart.addSeries(
                        "compute",
                        names,
                        models.stream().map(ModelCost::computeMsMean).toList())
                .setFillColor(new Color(0x2E7D32));
        chart.addSeries(
                        "barrier wait",
                        names,
                        models.stream().map(ModelCost::waitMsMean).toList())
                .setFillColor(new Color(0xEF9A9A));
        chart.addSeries(
                        "other (publish, read, scheduling)",
                        names,
                        models.stream().map(ModelCost::otherMsMean).toList())
                .setFillColor(new Color(0xB0BEC5));
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void style(final CategoryChart chart) {
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridLinesVisible(true);
    }
}
