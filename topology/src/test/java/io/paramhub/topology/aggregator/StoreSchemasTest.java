package io.paramhub.topology.aggregator;

import static io.paramhub.topology.aggregator.AggregatorTestBed.gradient;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.WorkerState;
import io.paramhub.schemas.registry.SchemaRegistryClient;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.schemas.registry.SchemaRegistryConfig;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.client.SchemaRegistration;
import java.util.List;
import java.util.Properties;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.Test;

/**
 * Tests that the stores' changelog subjects an aggregator registers while it starts
 * ({@link SchemaRegistration#registerStoreSchemas}, {@link AggregatorTopology#STORE_VALUES}) are exactly those its
 * stores write under, with the schemas they write.
 */
class StoreSchemasTest {

    private static final String APPLICATION_ID = "aggregator-test";
    private static final String JOB = "job-s";
    private static final long T0 = 1_800_000_000_000L;
    private static final List<String> WORKERS = List.of("worker-000", "worker-001");

    @Test
    void shouldLetStoresThatMayNotRegisterWriteOnceTheirSubjectsAreRegisteredAhead() {
        // given: an aggregator whose serdes only look schemas up, snapshotting every clock so that every store is
        // written
        final Properties lookUpOnly = new Properties();
        lookUpOnly.put(SchemaRegistryConfig.AUTO_REGISTER_SCHEMAS, "false");
        lookUpOnly.put(AggregatorTopology.SNAPSHOT_CLOCKS_CONFIG, "1");
        try (AggregatorTestBed bed = new AggregatorTestBed(lookUpOnly)) {
            final SerdeFactory registering = SerdeFactory.forRegistry(bed.registryUrl);
            SchemaRegistration.registerValueSchemas(bed.topics, registering);

            // when: the stores' subjects are registered ahead, then a job runs two clocks
            final int registered = SchemaRegistration.registerStoreSchemas(
                    APPLICATION_ID, AggregatorTopology.STORE_VALUES, registering);
            train(bed, 2);

            // then: versions 0 to 2 of both shards; each subject holds the schema registered ahead
            assertThat(bed.models()).extracting(model -> model.getVersion()).containsExactly(0L, 0L, 1L, 1L, 2L, 2L);
            assertThat(registered).isEqualTo(AggregatorTopology.STORE_VALUES.size());
            final SchemaRegistryClient registry = SchemaRegistryClients.fromConfig(registering.config());
            AggregatorTopology.STORE_VALUES.forEach(
                    (store, type) -> assertThat(registry.latest(APPLICATION_ID + "-" + store + "-changelog-value")
                                    .schema())
                            .as(store)
                            .isEqualTo(SpecificData.get().getSchema(type)));
        }
    }

    @Test
    void shouldFailToWriteTheStoresOfSerdesThatMayNotRegisterWithoutThem() {
        // given: the same aggregator, its topics' schemas registered but not its stores'
        final Properties lookUpOnly = new Properties();
        lookUpOnly.put(SchemaRegistryConfig.AUTO_REGISTER_SCHEMAS, "false");
        try (AggregatorTestBed bed = new AggregatorTestBed(lookUpOnly)) {
            SchemaRegistration.registerValueSchemas(bed.topics, SerdeFactory.forRegistry(bed.registryUrl));

            // when / then: the first store write fails, so the test above would fail without the registration ahead
            assertThatThrownBy(() -> train(bed, 1)).hasStackTraceContaining("looking up");
        }
    }

    private static void train(final AggregatorTestBed bed, final int clocks) {
        bed.submit(AggregatorTestBed.linearJob(JOB, WORKERS.size()));
        for (final String worker : WORKERS) {
            bed.member(JOB, worker, WorkerState.JOINED, T0 + 1);
        }
        for (int clock = 0; clock < clocks; clock++) {
            for (final String worker : WORKERS) {
                for (int shard = 0; shard < 2; shard++) {
                    bed.send(gradient(JOB, shard, worker, clock, 4, 1f, 2f), T0 + 10 + clock);
                }
            }
        }
    }
}
