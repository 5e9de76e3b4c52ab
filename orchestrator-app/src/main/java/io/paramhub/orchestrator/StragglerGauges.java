package io.paramhub.orchestrator;

import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.paramhub.launcher.AppMetrics;
import io.paramhub.topology.orchestrator.JobState;
import io.paramhub.topology.orchestrator.OrchestratorTopology;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * {@code paramhub.orchestrator.stragglers{job}}: the workers the orchestrator flags as stragglers now, per
 * job held by this instance, read from {@code orchestrator-job-store} at every scrape (interactive query).
 */
public final class StragglerGauges {

    private StragglerGauges() {}

    /** Registers the gauges on {@code metrics}, read from {@code streams}' store at every scrape. */
    public static void register(final AppMetrics metrics, final KafkaStreams streams) {
        final MultiGauge gauges = MultiGauge.builder("paramhub.orchestrator.stragglers")
                .description("Workers flagged as stragglers, per job held by this instance")
                .register(metrics.registry());
        metrics.beforeScrape(() -> {
            final List<MultiGauge.Row<?>> rows = new ArrayList<>();
            if (streams.state() == KafkaStreams.State.RUNNING) {
                try (KeyValueIterator<String, JobState> jobs = store(streams).all()) {
                    while (jobs.hasNext()) {
                        final KeyValue<String, JobState> job = jobs.next();
                        final long count = job.value.workers().values().stream()
                                .filter(w -> w.straggler())
                                .count();
                        rows.add(MultiGauge.Row.of(Tags.of("job", job.key), count));
                    }
                } catch (final InvalidStateStoreException e) {
                    return; // rebalancing: keep the last values
                }
            }
            gauges.register(rows, true);
        });
    }

    private static ReadOnlyKeyValueStore<String, JobState> store(final KafkaStreams streams) {
        return streams.store(StoreQueryParameters.fromNameAndType(
                OrchestratorTopology.JOB_STATE_STORE, QueryableStoreTypes.keyValueStore()));
    }
}
