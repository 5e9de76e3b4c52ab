package io.paramhub.launcher;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsReporter;

/**
 * A Kafka {@link MetricsReporter} that shows a plain client's metrics as Micrometer gauges, named as
 * Micrometer's {@code KafkaClientMetrics} names them ({@code kafka.producer.record.send.total}, tags from the
 * metric, {@code client.id} among them). Configured through {@code metric.reporters} with the registry under
 * {@link #REGISTRY_CONFIG}, so it follows every client built from the same settings without the code that
 * builds them knowing. Non-numeric metrics are skipped, and so is a metric whose name is already taken with
 * other tag keys (Prometheus needs one set of tag keys per name).
 */
public final class MeterRegistryReporter implements MetricsReporter {

    /** The setting that carries the {@link MeterRegistry} object to the reporter. */
    public static final String REGISTRY_CONFIG = "paramhub.meter.registry";

    private final Map<MetricName, Meter> meters = new ConcurrentHashMap<>();
    private MeterRegistry registry;

    /** {@code props} with this reporter added to {@code metric.reporters}, reporting into {@code registry}. */
    public static Properties reportingTo(final Properties props, final MeterRegistry registry) {
        final Properties with = new Properties();
        with.putAll(props);
        final Object existing = with.get(CommonClientConfigs.METRIC_REPORTER_CLASSES_CONFIG);
        final String reporters = existing == null || existing.toString().isBlank()
                ? MeterRegistryReporter.class.getName()
                : existing + "," + MeterRegistryReporter.class.getName();
        with.put(CommonClientConfigs.METRIC_REPORTER_CLASSES_CONFIG, reporters);
        with.put(REGISTRY_CONFIG, registry);
        return with;
    }

    @Override
    public void configure(final Map<String, ?> configs) {
        final Object given = configs.get(REGISTRY_CONFIG);
        registry = given instanceof MeterRegistry meterRegistry ? meterRegistry : null;
    }

    @Override
    public void init(final List<KafkaMetric> metrics) {
        metrics.forEach(this::metricChange);
    }

    @Override
    public void metricChange(final KafkaMetric metric) {
        if (registry == null || !(metric.metricValue() instanceof Number)) {
            return;
        }
        final MetricName name = metric.metricName();
        final String meterName = meterName(name);
        final List<Tag> tags = new ArrayList<>();
        name.tags().forEach((key, value) -> tags.add(Tag.of(key, value)));
        final Set<String> keys = new TreeSet<>(name.tags().keySet());
        for (final Meter existing : registry.find(meterName).meters()) {
            final Set<String> existingKeys = new TreeSet<>();
            existing.getId().getTags().forEach(tag -> existingKeys.add(tag.getKey()));
            existingKeys.remove(AppMetrics.APP_TAG);
            if (!existingKeys.equals(keys)) {
                return;
            }
        }
        try {
            meters.computeIfAbsent(
                    name,
                    ignored -> Gauge.builder(meterName, metric, MeterRegistryReporter::value)
                            .tags(tags)
                            .description(name.description())
                            .register(registry));
        } catch (final IllegalArgumentException e) {
            // another client registered the name with other tag keys meanwhile: skip this metric
        }
    }

    @Override
    public void metricRemoval(final KafkaMetric metric) {
        final Meter meter = meters.remove(metric.metricName());
        if (meter != null && registry != null) {
            registry.remove(meter);
        }
    }

    @Override
    public void close() {
        if (registry != null) {
            meters.values().forEach(registry::remove);
        }
        meters.clear();
    }

    /** {@code kafka.<group less -metrics>.<name>}, dashes as dots: {@code kafka.producer.record.send.total}. */
    static String meterName(final MetricName name) {
        final String group = name.group().replaceFirst("-metrics$", "");
        return ("kafka." + group + "." + name.name()).replace('-', '.').toLowerCase(Locale.ROOT);
    }

    private static double value(final KafkaMetric metric) {
        final Object value = metric.metricValue();
        return value instanceof Number number ? number.doubleValue() : Double.NaN;
    }
}
