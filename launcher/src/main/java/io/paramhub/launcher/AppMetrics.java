package io.paramhub.launcher;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;

/**
 * An app's meters, scraped by Prometheus from {@code /metrics}: JVM and process meters, Kafka Streams or
 * Kafka client meters ({@link #bind(KafkaStreams)}, {@link #reportClients(Properties)}), and the app's own,
 * registered on {@link #registry()}. Every meter carries the tag {@code app}.
 */
public final class AppMetrics implements AutoCloseable {

    /** The tag every meter carries: the app's name. */
    public static final String APP_TAG = "app";

    private final PrometheusMeterRegistry registry;
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final List<AutoCloseable> binders = new ArrayList<>();
    private final List<Runnable> beforeScrape = new ArrayList<>();

    private AppMetrics(final PrometheusMeterRegistry registry) {
        this.registry = registry;
    }

    /** A registry for {@code app} (paramhub-aggregator, ...) with the JVM's and the process's meters. */
    public static AppMetrics create(final String app) {
        final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().commonTags(APP_TAG, app);
        final AppMetrics metrics = new AppMetrics(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        metrics.gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        return metrics;
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** Adds the meters of {@code streams}: its own and those of its consumers, producers and admin. */
    public AppMetrics bind(final KafkaStreams streams) {
        final KafkaStreamsMetrics binder = new KafkaStreamsMetrics(streams);
        binder.bindTo(registry);
        synchronized (binders) {
            binders.add(binder);
        }
        return this;
    }

    /**
     * {@code clientProperties} with {@link MeterRegistryReporter} as a metric reporter, so that every Kafka
     * client created from them reports into this registry.
     */
    public Properties reportClients(final Properties clientProperties) {
        return MeterRegistryReporter.reportingTo(clientProperties, registry);
    }

    /** Runs {@code refresh} before every scrape (for meters computed from state, such as per-job gauges). */
    public void beforeScrape(final Runnable refresh) {
        synchronized (beforeScrape) {
            beforeScrape.add(refresh);
        }
    }

    /** Every meter in the Prometheus text format. Blocks: call it off the event loop. */
    public String scrape() {
        final List<Runnable> refreshes;
        synchronized (beforeScrape) {
            refreshes = List.copyOf(beforeScrape);
        }
        refreshes.forEach(Runnable::run);
        return registry.scrape();
    }

    @Override
    public void close() {
        synchronized (binders) {
            for (final AutoCloseable binder : binders) {
                try {
                    binder.close();
                } catch (final Exception ignored) {
                    // closing meters must not stop a shutdown
                }
            }
        }
        gc.close();
        registry.close();
    }
}
