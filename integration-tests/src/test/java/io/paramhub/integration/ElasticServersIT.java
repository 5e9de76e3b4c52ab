package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ShardPlacement;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.ServerEmulation;
import io.paramhub.embedded.ServerRounds;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.ml.LinearProblem;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import io.paramhub.topology.placement.PlacementSettings;
import io.paramhub.worker.ComputeEmulation;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Elastic parameter servers: two aggregator instances, one slowed 3x; the orchestrator sees it in
 * {@code server-telemetry}, publishes a placement that moves shards off it, the aggregators follow it (their
 * task assignor) and the moved shards restore on their new owner. Compared with the same run without a slow
 * instance: the mean round time after the move is within 1.3x, the group rebalances only for the placement
 * (never after start-up without a slow instance), and the BSP model is bit-identical to the in-process run.
 *
 * <p>Costs are emulated large next to a loaded machine's noise: a worker computes 60 ms a clock, a shard-round
 * costs 10 ms on a normal instance and 30 ms on the slow one. The job names are chosen so that each of the 4
 * shards hashes to a partition of its own ({@code elastic-even-9}: partitions 1, 4, 5, 7;
 * {@code elastic-slowed-2}: 1, 3, 4, 6), and the instances start with partitions 0-3 and 4-7: without a slow
 * instance a round's server time is 30 ms (3 shards on one instance); with it, 60 ms (2 shards on the slow one)
 * until the orchestrator moves one of them to the fast instance: 30 ms again.
 */
@Tag("integration")
class ElasticServersIT extends ClusterTestBase {

    private static final Logger log = LoggerFactory.getLogger(ElasticServersIT.class);

    private static final int SHARDS = 4;

    /**
     * 96 rounds a run: the orchestrator moves a shard about 3 s (some 20 rounds) into the slowed run, which leaves
     * some 70 rounds to measure after the move, and the run without a slow instance about 10 s of placement
     * evaluations (one a second) to issue none in.
     */
    private static final int EPOCHS = 3;

    private static final long SAMPLE_COST_US = 1_400;
    private static final long ROUND_COST_US = 10_000;
    private static final double SLOWDOWN = 3.0;

    @Test
    void shouldMoveShardsOffASlowAggregatorAndKeepTheModelBitIdentical(@TempDir final Path dir) throws Exception {
        // given
        final LinearProblem problem = LinearJobs.problem();
        final JobSpec even = LinearJobs.job("elastic-even-9", 3, SHARDS, EPOCHS);
        final JobSpec slowed = LinearJobs.job("elastic-slowed-2", 3, SHARDS, EPOCHS);

        // when
        final Outcome baseline = train(even, problem, dir.resolve("even"), Map.of());
        final Outcome moved = train(slowed, problem, dir.resolve("slowed"), Map.of(1, SLOWDOWN));

        log.info(
                "mean round ms: without a slow instance {}; slowed, before the move {}, after it {}; moves {} "
                        + "(versions {} to {} of {}); rebalances after start-up {} and {}",
                baseline.rounds().roundMsBefore(),
                moved.rounds().roundMsBefore(),
                moved.rounds().roundMsAfter(),
                moved.rounds().moves(),
                moved.rounds().firstMove(),
                moved.rounds().lastMove(),
                moved.result().job().iterations(),
                baseline.result().aggregatorRebalances(),
                moved.result().aggregatorRebalances());

        // then the orchestrator moved shards off the slow instance, and only off it
        final String slow = moved.run().aggregatorId(1);
        assertThat(moved.rounds().placements()).isNotEmpty();
        final ShardPlacement placement = moved.rounds().placements().get(0);
        assertThat(placement.getSlowInstances()).containsExactly(slow);
        assertThat(placement.getOwners().stream()
                        .filter(owner -> owner.getInstance().equals(slow)))
                .hasSizeLessThan(SHARDS / 2);
        assertThat(moved.rounds().moves()).isPositive();
        assertThat(heldAtTheEnd(moved.rounds(), slow)).isLessThan(SHARDS / 2);
        assertThat(baseline.rounds().placements()).isEmpty();
        assertThat(baseline.rounds().moves()).isZero();
        // and the group rebalanced only for the placement: never after start-up without a slow instance
        assertThat(baseline.result().aggregatorRebalances()).isZero();
        assertThat(moved.result().aggregatorRebalances()).isPositive();
        // and rounds after the move are close to the run without a slow instance
        assertThat(moved.rounds().roundMsAfter())
                .as(
                        "mean round ms after the move (%s) vs without a slow instance (%s)",
                        moved.rounds().roundMsAfter(), baseline.rounds().roundMsBefore())
                .isLessThanOrEqualTo(1.3 * baseline.rounds().roundMsBefore());
        // (the slowdown was measured as emulated: about 30 ms a shard-round against 10)
        assertThat(placement.getMsPerShardRound().get(slow))
                .isGreaterThan(
                        2 * placement.getMsPerShardRound().get(moved.run().aggregatorId(0)));
        // and no update was lost or repeated
        assertThat(moved.result().finalParameters()).containsExactly(LinearJobs.bspReference(slowed, problem));
        assertThat(baseline.result().finalParameters()).containsExactly(LinearJobs.bspReference(even, problem));
        assertThat(moved.result().deadLetters()).isZero();
    }

    private record Outcome(TrainingRun run, TrainingRun.Result result, ServerRounds rounds) {}

    private static Outcome train(
            final JobSpec spec, final LinearProblem problem, final Path stateDir, final Map<Integer, Double> slowdowns)
            throws InterruptedException {
        final Properties settings =
                KafkaConnection.plain(kafka.bootstrapServers(), registry.url()).streams();
        // the first aggregator instance hears of the second one joining at its next heartbeat: after 0.5 s
        // rather than Kafka's 3 s, before the job starts (a placement asks for its rebalance itself)
        settings.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 500);
        final KafkaConnection connection = KafkaConnection.of(settings);
        final Map<Integer, ComputeEmulation> workers = new HashMap<>();
        for (int index = 0; index < spec.getExpectedWorkers(); index++) {
            workers.put(index, new ComputeEmulation(1.0, 0, SAMPLE_COST_US));
        }
        final TrainingRun run = new TrainingRun(connection, TopicCatalog.DEFAULT_PREFIX, stateDir)
                .withAggregators(2)
                .withEmulation(workers)
                .withServerEmulation(new ServerEmulation(ROUND_COST_US, slowdowns))
                .withOrchestrator(OrchestratorSettings.defaults())
                .withPlacement(PlacementSettings.defaults());
        final TrainingRun.Result result = run.run(spec, problem.data(), RunListener.NONE);
        final ServerRounds rounds = ServerRounds.read(
                connection.topics(TopicCatalog.DEFAULT_PREFIX),
                connection.client(),
                spec.getJob(),
                List.of(run.aggregatorId(0), run.aggregatorId(1)));
        return new Outcome(run, result, rounds);
    }

    private static long heldAtTheEnd(final ServerRounds rounds, final String instance) {
        return rounds.owners().values().stream()
                .filter(timeline -> timeline.get(timeline.lastKey()).equals(instance))
                .count();
    }
}
