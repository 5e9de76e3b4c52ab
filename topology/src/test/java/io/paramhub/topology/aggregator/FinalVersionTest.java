package io.paramhub.topology.aggregator;

import static io.paramhub.topology.aggregator.AggregatorTestBed.gradient;
import static io.paramhub.topology.aggregator.AggregatorTestBed.linearJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.SyncMode;
import io.paramhub.avro.TensorShape;
import io.paramhub.avro.WorkerState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tests what each {@code model} record says for its consumers: the model kind, the tensor layout, and the mark on
 * a job's final version, set once every worker has left finished and every clock it announced is in.
 */
class FinalVersionTest {

    private static final String JOB = "job-f";
    private static final long T0 = 1_800_000_000_000L;
    private static final List<String> WORKERS = List.of("worker-000", "worker-001");

    @Test
    void shouldMarkTheLastVersionOfEachShardWhenEveryWorkerLeftFinished() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: a BSP job of 2 workers, 2 clocks applied
            startAndTrain(bed, job(SyncMode.BSP), 2);
            bed.left(JOB, "worker-000", 2, true, T0 + 100);
            final List<ModelShard> afterOne = bed.models();

            // when
            bed.left(JOB, "worker-001", 2, true, T0 + 101);
            final List<ModelShard> afterBoth = bed.models();

            // then
            assertThat(afterOne).allMatch(model -> !model.getFinalVersion());
            assertThat(afterBoth).hasSize(2).allSatisfy(model -> {
                assertThat(model.getFinalVersion()).isTrue();
                assertThat(model.getVersion()).isEqualTo(2);
            });
            assertThat(afterBoth).extracting(ModelShard::getShard).containsExactlyInAnyOrder(0, 1);
        }
    }

    @Test
    void shouldSayTheModelKindAndLayoutOnEveryVersion() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.jobs.pipeInput(JOB, job(SyncMode.BSP), T0);

            // when
            final List<ModelShard> initial = bed.models();

            // then
            assertThat(initial).hasSize(2).allSatisfy(model -> {
                assertThat(model.getModel()).isEqualTo("linear");
                assertThat(model.getTensors())
                        .containsExactly(new TensorShape("weight", List.of(1, 3)), new TensorShape("bias", List.of(1)));
                assertThat(model.getFinalVersion()).isFalse();
            });
        }
    }

    @Test
    void shouldMarkTheVersionThatAppliesTheLastClockWhenTheLeavesAreReadBeforeItsGradients() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: both workers' finished LEFT (2 clocks) read before their gradients of clock 1 (ASP: each
            // applied on arrival)
            startAndTrain(bed, job(SyncMode.ASP), 1);
            bed.left(JOB, "worker-000", 2, true, T0 + 100);
            bed.left(JOB, "worker-001", 2, true, T0 + 101);
            final List<ModelShard> beforeLastClock = bed.models();

            // when
            sendClock(bed, 1, T0 + 102);
            final List<ModelShard> lastClock = bed.models();

            // then
            assertThat(beforeLastClock).allMatch(model -> !model.getFinalVersion());
            assertThat(lastClock).hasSize(4);
            assertThat(lastClock.subList(0, 2)).allMatch(model -> !model.getFinalVersion());
            assertThat(lastClock.subList(2, 4)).allSatisfy(model -> {
                assertThat(model.getVersion()).isEqualTo(4);
                assertThat(model.getFinalVersion()).isTrue();
            });
        }
    }

    @Test
    void shouldMarkNothingWhenAWorkerWasStopped() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            startAndTrain(bed, job(SyncMode.ASP), 2);

            // when: one worker finishes, the other is stopped after the same clocks
            bed.left(JOB, "worker-000", 2, true, T0 + 100);
            bed.left(JOB, "worker-001", 2, false, T0 + 101);

            // then
            assertThat(bed.models()).allMatch(model -> !model.getFinalVersion());
        }
    }

    @Test
    void shouldUnmarkWhenAFinishedWorkerJoinsAgain() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: an ASP job over, marked final
            startAndTrain(bed, job(SyncMode.ASP), 1);
            bed.left(JOB, "worker-000", 1, true, T0 + 100);
            bed.left(JOB, "worker-001", 1, true, T0 + 101);
            assertThat(bed.models()).isNotEmpty().allMatch(ModelShard::getFinalVersion);

            // when
            bed.member(JOB, "worker-000", WorkerState.JOINED, T0 + 200);
            bed.send(gradient(JOB, 0, "worker-000", 1, 4, 1f, 1f), T0 + 201);

            // then
            assertThat(bed.models()).isNotEmpty().allMatch(model -> !model.getFinalVersion());
        }
    }

    private static JobSpec job(final SyncMode mode) {
        return JobSpec.newBuilder(linearJob(JOB, WORKERS.size()))
                .setSyncMode(mode)
                .setSessionTimeoutMs(60_000)
                .build();
    }

    /** Submits {@code spec}, joins both workers and sends clocks {@code [0, clocks)} for both shards; drains. */
    private static void startAndTrain(final AggregatorTestBed bed, final JobSpec spec, final int clocks) {
        bed.jobs.pipeInput(JOB, spec, T0);
        for (final String worker : WORKERS) {
            bed.member(JOB, worker, WorkerState.JOINED, T0 + 1);
        }
        for (int clock = 0; clock < clocks; clock++) {
            sendClock(bed, clock, T0 + 10 + clock);
        }
        bed.models();
    }

    private static void sendClock(final AggregatorTestBed bed, final long clock, final long timestamp) {
        for (final String worker : WORKERS) {
            for (int shard = 0; shard < 2; shard++) {
                bed.send(gradient(JOB, shard, worker, clock, 4, 1f, 2f), timestamp);
            }
        }
    }
}
