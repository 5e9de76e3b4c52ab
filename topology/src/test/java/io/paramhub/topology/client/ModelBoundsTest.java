package io.paramhub.topology.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Tests what a bounded {@link ModelView} refuses: model records no aggregator of the job can write (a version or
 * clock past the job's end, a jump past the online step, a foreign shard count, an invalid plan).
 */
class ModelBoundsTest {

    /** Two shards of two parameters, 10 clocks, 3 workers. */
    private static final ModelBounds BOUNDS = new ModelBounds(2, 10, 3, 4);

    private final List<String> refusals = new ArrayList<>();

    private ModelView view(final ModelBounds bounds) {
        return new ModelView("job", 2).bounded(bounds, (shard, problem) -> refusals.add(problem));
    }

    @Test
    void shouldRefuseAMaximumVersionAndKeepTakingTheAggregatorsVersions() {
        // given
        final ModelView view = view(BOUNDS);
        view.offer(shard(0, 3, 3).build());

        // when
        final boolean forged = view.offer(shard(0, Long.MAX_VALUE, 3).build());
        final boolean next = view.offer(shard(0, 4, 4).build());

        // then
        assertThat(forged).isFalse();
        assertThat(next).isTrue();
        assertThat(view.versions()[0]).isEqualTo(4);
        assertThat(refusals).singleElement().asString().contains("past the 33 a job of 10 clocks");
    }

    @Test
    void shouldTakeTheLastVersionAJobOfEveryWorkersClocksCanReach() {
        // given: every worker's every clock applied one by one
        final ModelView view = view(BOUNDS);

        // when
        final boolean last = view.offer(shard(0, 30, 10).build());

        // then
        assertThat(last).isTrue();
        assertThat(refusals).isEmpty();
    }

    @Test
    void shouldRefuseAMinClockPastTheJobsEndSoThatNoWorkerJoinsThere() {
        // given
        final ModelView view = view(BOUNDS);

        // when
        final boolean forged = view.offer(shard(0, 1, 1_000_000).build());

        // then
        assertThat(forged).isFalse();
        assertThat(view.minClock()).isEqualTo(-1);
        assertThat(refusals).singleElement().asString().contains("minClock 1000000");
    }

    @Test
    void shouldRefuseAWorkersClockCountPastTheJobsEnd() {
        assertThat(view(BOUNDS)
                        .offer(shard(0, 1, 1)
                                .setClocks(Map.of("worker-000", 11L))
                                .build()))
                .isFalse();
        assertThat(refusals).singleElement().asString().contains("clock count 11 of worker-000");
    }

    @Test
    void shouldRefuseAShardCountNotTheJobs() {
        assertThat(view(BOUNDS).offer(shard(0, 1, 1).setShards(2_000_000_000).build()))
                .isFalse();
        assertThat(refusals).singleElement().asString().contains("shard count 2000000000");
    }

    @Test
    void shouldRefuseValuesOutsideTheJobsParameters() {
        assertThat(view(BOUNDS).offer(shard(1, 1, 1).setFirstParameter(3).build()))
                .isFalse();
        assertThat(refusals).singleElement().asString().contains("outside the job's 4 parameters");
    }

    @Test
    void shouldRefuseAnInvalidPlan() {
        // given
        final ModelView view = view(BOUNDS);

        // when
        final boolean negative = view.offer(shard(0, 1, 1)
                .setShares(Map.of("worker-000", -0.5, "worker-001", 1.5))
                .build());
        final boolean notOne = view.offer(shard(0, 1, 1)
                .setShares(Map.of("worker-000", 0.5, "worker-001", 0.6))
                .build());
        final boolean threads = view.offer(shard(0, 1, 1)
                .setShares(Map.of("worker-000", 0.5, "worker-001", 0.5))
                .setThreads(Map.of("worker-000", 1_000_000))
                .build());
        final boolean stranger = view.offer(shard(0, 1, 1)
                .setShares(Map.of("worker-000", 0.5, "worker-007", 0.5))
                .build());
        final boolean valid = view.offer(shard(0, 1, 1)
                .setShares(Map.of("worker-000", 0.25, "worker-001", 0.75))
                .setThreads(Map.of("worker-000", 2, "worker-001", 4))
                .build());

        // then
        assertThat(List.of(negative, notOne, threads, stranger)).containsOnly(false);
        assertThat(valid).isTrue();
        assertThat(view.planShares()).containsEntry("worker-001", 0.75);
        assertThat(refusals).hasSize(4);
    }

    @Test
    void shouldBoundAnOnlineJobsStepFromTheRecordHeldButNotItsFirstRecord() {
        // given: a job without an end
        final ModelView view = view(new ModelBounds(2, -1, 3, 4));

        // when
        final boolean first =
                view.offer(shard(0, 5_000_000_000L, 5_000_000_000L).build());
        final boolean forged =
                view.offer(shard(0, Long.MAX_VALUE, 5_000_000_000L).build());
        final boolean step = view.offer(shard(0, 5_000_000_000L + ModelBounds.ONLINE_STEP, 5_000_000_001L)
                .build());

        // then
        assertThat(first).isTrue();
        assertThat(forged).isFalse();
        assertThat(step).isTrue();
    }

    private static ModelShard.Builder shard(final int shard, final long version, final long minClock) {
        return ModelShard.newBuilder()
                .setJob("job")
                .setShard(shard)
                .setShards(2)
                .setFirstParameter(shard * 2)
                .setVersion(version)
                .setMinClock(minClock)
                .setClocks(Map.of())
                .setValues(FloatPacking.pack(new float[] {1f, 2f}))
                .setUpdatedAt(Instant.EPOCH);
    }
}
