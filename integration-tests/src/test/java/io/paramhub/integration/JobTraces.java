package io.paramhub.integration;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.paramhub.topology.aggregator.AggregatorTopology;
import io.paramhub.topology.orchestrator.OrchestratorTopology;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * What a running cluster still holds of a job, as an operator could see it: keys in the aggregator's and the
 * orchestrator's stores (interactive queries), meters tagged with it, dashboard boards, the newest record
 * of each of its keys on {@code model}.
 */
final class JobTraces {

    /** The aggregator's stores, each keyed by job ({@code job-spec-store}) or by {@code job/shard}. */
    static final List<String> AGGREGATOR_STORES = List.of(
            AggregatorTopology.JOB_SPEC_STORE,
            AggregatorTopology.SHARD_JOB_STORE,
            AggregatorTopology.SHARD_STATE_STORE,
            AggregatorTopology.SHARD_MEMBER_STORE,
            AggregatorTopology.SHARD_SNAPSHOT_STORE,
            AggregatorTopology.SHARD_MODEL_STORE);

    private JobTraces() {}

    /** Per store of the aggregator, the keys of {@code job} it holds; stores without any left out. */
    static Map<String, List<String>> aggregatorKeys(final KafkaStreams aggregator, final String job) {
        final Map<String, List<String>> found = new TreeMap<>();
        for (final String store : AGGREGATOR_STORES) {
            final List<String> keys = keysOf(aggregator, store, job);
            if (!keys.isEmpty()) {
                found.put(store, keys);
            }
        }
        return found;
    }

    /** The keys of {@code job} in the orchestrator's {@code orchestrator-job-store}. */
    static List<String> orchestratorKeys(final KafkaStreams orchestrator, final String job) {
        return keysOf(orchestrator, OrchestratorTopology.JOB_STATE_STORE, job);
    }

    /** Every key of {@code store} on this instance that is {@code job} or {@code job/...}. */
    static List<String> keysOf(final KafkaStreams streams, final String store, final String job) {
        final ReadOnlyKeyValueStore<String, Object> values = streams.store(
                StoreQueryParameters.fromNameAndType(store, QueryableStoreTypes.<String, Object>keyValueStore()));
        final List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, Object> all = values.all()) {
            while (all.hasNext()) {
                final KeyValue<String, Object> entry = all.next();
                if (entry.key.equals(job) || entry.key.startsWith(job + "/")) {
                    keys.add(entry.key);
                }
            }
        }
        return keys;
    }

    /** The meters of {@code registry} tagged {@code job}, by name. */
    static List<String> meters(final MeterRegistry registry, final String job) {
        return registry.getMeters().stream()
                .filter(meter -> job.equals(meter.getId().getTag("job")))
                .map(Meter::getId)
                .map(id -> id.getName() + id.getTags())
                .toList();
    }

    /** The jobs with a board on the dashboard at {@code baseUrl} ({@code GET /jobs}). */
    static List<String> boards(final String baseUrl) {
        try {
            final HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(baseUrl + "/jobs"))
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET /jobs answered " + response.statusCode() + ": " + response.body());
            }
            final JsonArray summaries = new JsonArray(response.body());
            final List<String> jobs = new ArrayList<>();
            for (int index = 0; index < summaries.size(); index++) {
                jobs.add(((JsonObject) summaries.getValue(index)).getString("job"));
            }
            return jobs;
        } catch (final IOException e) {
            throw new IllegalStateException("GET " + baseUrl + "/jobs failed", e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * The newest committed record of each key on {@code topic} (read to its end), by key: true when it
     * holds a value, false when it is a tombstone.
     */
    static Map<String, Boolean> newestHasValue(final String bootstrapServers, final String topic) {
        final Map<String, Boolean> newest = new HashMap<>();
        final List<ConsumerRecord<String, byte[]>> records =
                TopicContents.readAll(bootstrapServers, topic, new StringDeserializer(), new ByteArrayDeserializer());
        for (final ConsumerRecord<String, byte[]> record : records) {
            newest.put(record.key(), record.value() != null);
        }
        return newest;
    }
}
