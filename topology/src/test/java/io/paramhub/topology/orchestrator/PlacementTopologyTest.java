package io.paramhub.topology.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.PartitionOwner;
import io.paramhub.avro.ServerTelemetry;
import io.paramhub.avro.ShardPlacement;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TestStateDirs;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.placement.PlacementSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

/** The orchestrator's placement of shard partitions, from {@code server-telemetry} to {@code placements}. */
class PlacementTopologyTest {

    private static final String FAST = "agg-fast";
    private static final String SLOW = "agg-slow";
    private static final long START_MS = 1_700_000_000_000L;

    @Test
    void shouldMoveShardsOffAnInstanceThreeTimesSlowerOnceTheGainHasHeld() {
        try (Bed bed = new Bed(PlacementSettings.defaults())) {
            // given 4 partitions of one shard each, two on each instance; the slow one 3x slower
            // when
            for (int second = 0; second < 6; second++) {
                bed.round(second, 10.0, 30.0);
            }

            // then one placement: version 1, 3 partitions on the fast instance, 1 on the slow one
            final List<ShardPlacement> placements = bed.placements.readValuesToList();
            assertThat(placements).hasSize(1);
            final ShardPlacement placement = placements.get(0);
            assertThat(placement.getVersion()).isEqualTo(1);
            assertThat(placement.getSlowInstances()).containsExactly(SLOW);
            assertThat(owners(placement).values().stream().filter(SLOW::equals)).hasSize(1);
            assertThat(placement.getCurrentRoundMs()).isEqualTo(60.0);
            assertThat(placement.getPredictedRoundMs()).isEqualTo(30.0);
            assertThat(placement.getReason()).contains("1 partition moved");
            assertThat(bed.metrics.placementsIssued()).isEqualTo(1);
        }
    }

    @Test
    void shouldPlaceNothingWhenTheInstancesAreAsFast() {
        try (Bed bed = new Bed(PlacementSettings.defaults())) {
            // when
            for (int second = 0; second < 8; second++) {
                bed.round(second, 10.0, 10.5);
            }

            // then
            assertThat(bed.placements.readValuesToList()).isEmpty();
            assertThat(bed.metrics.recommendedAggregators()).isEqualTo(2);
        }
    }

    @Test
    void shouldMeasureButPublishNothingWhenObserveOnly() {
        try (Bed bed = new Bed(PlacementSettings.defaults().observeOnly())) {
            // when
            for (int second = 0; second < 8; second++) {
                bed.round(second, 10.0, 30.0);
            }

            // then
            assertThat(bed.placements.readValuesToList()).isEmpty();
            assertThat(bed.metrics.recommendedAggregators()).isPositive();
        }
    }

    @Test
    void shouldIgnoreShardRoundsOfInstancesLongGone() {
        try (Bed bed = new Bed(PlacementSettings.defaults())) {
            // given an instance that reported two minutes before the others (an old run's backlog)
            bed.pipe("agg-gone", 4, 1.0, -120);

            // when
            for (int second = 0; second < 6; second++) {
                bed.round(second, 10.0, 30.0);
            }

            // then the placement names only the instances of now
            final List<ShardPlacement> placements = bed.placements.readValuesToList();
            assertThat(placements).hasSize(1);
            assertThat(placements.get(0).getMsPerShardRound()).containsOnlyKeys(FAST, SLOW);
            assertThat(owners(placements.get(0))).doesNotContainValue("agg-gone");
        }
    }

    private static Map<Integer, String> owners(final ShardPlacement placement) {
        return placement.getOwners().stream()
                .collect(Collectors.toMap(PartitionOwner::getPartition, PartitionOwner::getInstance));
    }

    /** A driver around the orchestrator and two aggregator instances reporting shard-rounds. */
    private static final class Bed implements AutoCloseable {

        private final Path stateDir = TestStateDirs.create("placement-test-");

        final TopologyTestDriver driver;
        final TestInputTopic<String, ServerTelemetry> telemetry;
        final TestOutputTopic<String, ShardPlacement> placements;
        final OrchestratorMetrics metrics = OrchestratorMetrics.unregistered();
        private long version;

        Bed(final PlacementSettings settings) {
            final String scope = "placement-test-" + UUID.randomUUID();
            final SerdeFactory serdes = SerdeFactory.forRegistry("mock://" + scope);
            final TopicCatalog topics = TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, serdes);
            final Properties props = StreamsProperties.withDefaults("placement-test", new Properties());
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            props.put(StreamsProperties.SCHEMA_REGISTRY_URL, "mock://" + scope);
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
            driver = new TopologyTestDriver(
                    OrchestratorTopology.build(topics, serdes, OrchestratorSettings.defaults(), settings, metrics),
                    props,
                    Instant.ofEpochMilli(START_MS));
            telemetry = driver.createInputTopic(
                    topics.serverTelemetry().name(),
                    new StringSerializer(),
                    topics.serverTelemetry().valueSerde().serializer());
            placements = driver.createOutputTopic(
                    topics.placements().name(),
                    new StringDeserializer(),
                    topics.placements().valueSerde().deserializer());
        }

        /** One second of rounds: partitions 0 and 1 on the fast instance, 2 and 3 on the slow one; then 1 s passes. */
        void round(final int second, final double fastMs, final double slowMs) {
            for (int r = 0; r < 5; r++) {
                version++;
                for (int partition = 0; partition < 4; partition++) {
                    pipe(partition < 2 ? FAST : SLOW, partition, partition < 2 ? fastMs : slowMs, second);
                }
            }
            driver.advanceWallClockTime(Duration.ofSeconds(1));
        }

        /** One shard-round of {@code instance} on {@code partition}, at {@code second} s of the test's clock. */
        void pipe(final String instance, final int partition, final double ms, final int second) {
            telemetry.pipeInput(
                    instance,
                    ServerTelemetry.newBuilder()
                            .setInstance(instance)
                            .setJob("job-p")
                            .setShard(partition)
                            .setPartition(partition)
                            .setVersion(version)
                            .setBusyMs(ms)
                            .setRoundMs(ms)
                            .setTimestamp(Instant.ofEpochMilli(START_MS + second * 1000L))
                            .build());
        }

        @Override
        public void close() {
            driver.close();
            TestStateDirs.delete(stateDir);
        }
    }
}
