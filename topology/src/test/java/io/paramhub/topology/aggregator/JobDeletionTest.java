package io.paramhub.topology.aggregator;

import static io.paramhub.topology.aggregator.AggregatorTestBed.gradient;
import static io.paramhub.topology.aggregator.AggregatorTestBed.linearJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.WorkerState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/** A tombstone on {@code jobs} deletes the job from every aggregator store and gauge, and from {@code model}. */
class JobDeletionTest {

    private static final List<String> STORES = List.of(
            AggregatorTopology.JOB_SPEC_STORE,
            AggregatorTopology.SHARD_JOB_STORE,
            AggregatorTopology.SHARD_STATE_STORE,
            AggregatorTopology.SHARD_MEMBER_STORE,
            AggregatorTopology.SHARD_SNAPSHOT_STORE,
            AggregatorTopology.SHARD_MODEL_STORE);

    @Test
    void shouldDropTheJobsStoreEntriesAndGaugesAndTombstoneItsModelWhenItsJobIsTombstoned() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: two jobs; the one to delete has a member and a gradient waiting for its clock
            bed.submit(linearJob("gone", 2));
            bed.submit(linearJob("kept", 2));
            bed.member("gone", "worker-000", WorkerState.JOINED, 1_000);
            bed.send(gradient("gone", 0, "worker-000", 0, 4, 1f, 2f));
            bed.model.readRecordsToList();
            assertThat(keysOf(bed, "gone")).isNotEmpty();

            // when
            bed.jobs.pipeInput("gone", null);

            // then
            final List<TestRecord<String, ModelShard>> model = bed.model.readRecordsToList();
            assertThat(model).extracting(TestRecord::key).containsExactlyInAnyOrder("gone/0", "gone/1");
            assertThat(model).allSatisfy(record -> assertThat(record.value()).isNull());
            assertThat(keysOf(bed, "gone")).isEmpty();
            assertThat(keysOf(bed, "kept"))
                    .containsKeys(
                            AggregatorTopology.JOB_SPEC_STORE,
                            AggregatorTopology.SHARD_JOB_STORE,
                            AggregatorTopology.SHARD_STATE_STORE,
                            AggregatorTopology.SHARD_MODEL_STORE);
            assertThat(bed.metrics.modelVersion("gone", 0)).isEqualTo(-1);
            assertThat(bed.metrics.modelVersion("kept", 0)).isEqualTo(0);
            assertThat(bed.metrics.shardsWithGauges()).isEqualTo(2);
        }
    }

    @Test
    void shouldDeadLetterAGradientOfADeletedJob() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.submit(linearJob("gone", 1));
            bed.jobs.pipeInput("gone", null);

            // when
            bed.send(gradient("gone", 0, "worker-000", 0, 4, 1f, 2f));

            // then
            assertThat(bed.deadLetters.readValuesToList())
                    .extracting(letter -> letter.getReason())
                    .containsExactly(DeadLetterReason.UNKNOWN_JOB);
            assertThat(keysOf(bed, "gone")).isEmpty();
        }
    }

    @Test
    void shouldIgnoreATombstoneOfAJobNeverSubmitted() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // when
            bed.jobs.pipeInput("nobody", null);

            // then
            assertThat(bed.model.readRecordsToList()).isEmpty();
        }
    }

    /** Per store, the keys of {@code job} it holds (stores without any left out). */
    private static Map<String, List<String>> keysOf(final AggregatorTestBed bed, final String job) {
        final Map<String, List<String>> found = new TreeMap<>();
        for (final String name : STORES) {
            final KeyValueStore<String, Object> store = bed.driver.getKeyValueStore(name);
            final List<String> keys = new ArrayList<>();
            try (KeyValueIterator<String, Object> all = store.all()) {
                while (all.hasNext()) {
                    final KeyValue<String, Object> entry = all.next();
                    if (entry.key.equals(job) || entry.key.startsWith(job + "/")) {
                        keys.add(entry.key);
                    }
                }
            }
            if (!keys.isEmpty()) {
                found.put(name, keys);
            }
        }
        return found;
    }
}
