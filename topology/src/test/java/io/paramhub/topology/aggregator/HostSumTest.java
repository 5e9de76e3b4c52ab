package io.paramhub.topology.aggregator;

import static io.paramhub.topology.aggregator.AggregatorTestBed.gradient;
import static io.paramhub.topology.aggregator.AggregatorTestBed.linearJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientEncoding;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.SyncMode;
import io.paramhub.schemas.FloatPacking;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Protocol 2's host sums: one record holding the summed gradients of several workers of one host counts, at the
 * aggregator, as the gradient of each of them (barrier, clocks, duplicates), and as nothing else.
 */
class HostSumTest {

    private static final String JOB = "job-host";

    @Test
    void shouldCountAHostsSumAsTheGradientOfEachContributor() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: three workers, of which 000 and 001 share a host
            bed.submit(linearJob(JOB, 3));
            final float[] before = FloatPacking.unpack(shardOf(bed.models(), 0).getValues());

            // when: their sum (2 + 3 samples) comes in one record, then worker-002's own
            bed.send(hostSum(gradient(JOB, 0, "worker-000", 0, 5, 5f, 10f), "worker-000", "worker-001"));
            final List<ModelShard> afterSum = bed.models();
            bed.send(gradient(JOB, 0, "worker-002", 0, 3, 3f, 6f));
            final List<ModelShard> afterAll = bed.models();

            // then: the sum alone does not pass the barrier, which waits for worker-002; with it the clock is the
            // one three records would give: mean (5 + 3, 10 + 6) / 8 = (1, 2), SGD with lr 0.5
            assertThat(afterSum).isEmpty();
            assertThat(afterAll).hasSize(1);
            final ModelShard updated = afterAll.get(0);
            assertThat(updated.getMinClock()).isEqualTo(1);
            assertThat(updated.getClocks())
                    .containsExactlyInAnyOrderEntriesOf(Map.of("worker-000", 1L, "worker-001", 1L, "worker-002", 1L));
            assertThat(FloatPacking.unpack(updated.getValues()))
                    .containsExactly(before[0] - 0.5f * 1f, before[1] - 0.5f * 2f);
            assertThat(bed.metrics.appliedCount()).isEqualTo(3);
            assertThat(bed.deadLetters.readValuesToList()).isEmpty();
        }
    }

    @Test
    void shouldRefuseAGradientOfAWorkerAlreadyCountedInAHostsSumAndTheReverse() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: clock 0 of workers 000 and 001 in one sum, buffered
            bed.submit(linearJob(JOB, 4));
            bed.models();
            bed.send(hostSum(gradient(JOB, 0, "worker-000", 0, 4, 4f, 4f), "worker-000", "worker-001"));

            // when: worker-001 sends its own clock 0 too (its host's leader was thought dead); worker-002's own
            // is buffered, then a sum of 002 and 003 names it again
            bed.send(gradient(JOB, 0, "worker-001", 0, 2, 2f, 2f));
            bed.send(gradient(JOB, 0, "worker-002", 0, 2, 2f, 2f));
            bed.send(hostSum(gradient(JOB, 0, "worker-003", 0, 4, 4f, 4f), "worker-002", "worker-003"));
            bed.send(gradient(JOB, 0, "worker-003", 0, 2, 2f, 2f));

            // then: both repeats are refused, and the clock counts each worker once
            assertThat(bed.deadLetters.readValuesToList())
                    .extracting(DeadLetter::getReason, DeadLetter::getError)
                    .containsExactly(
                            tuple(DeadLetterReason.DUPLICATE, "clock 0 of worker worker-001 is already buffered"),
                            tuple(DeadLetterReason.DUPLICATE, "clock 0 of worker worker-002 is already buffered"));
            final List<ModelShard> models = bed.models();
            assertThat(models).hasSize(1);
            assertThat(models.get(0).getClocks())
                    .hasSize(4)
                    .allSatisfy((worker, clocks) -> assertThat(clocks).isEqualTo(1L));
        }
    }

    @Test
    void shouldRefuseAHostsSumThatDoesNotNameSoundContributors() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.submit(linearJob(JOB, 3));
            bed.models();
            final GradientShard own = gradient(JOB, 0, "worker-000", 0, 4, 4f, 4f);

            // when
            bed.send(hostSum(own, "worker-001", "worker-002"));
            bed.send(hostSum(own, "worker-000", "worker-000"));
            bed.send(hostSum(own, "worker-000", "worker-007"));

            // then: none of them counted for anyone
            assertThat(bed.deadLetters.readValuesToList())
                    .extracting(DeadLetter::getReason)
                    .containsExactly(
                            DeadLetterReason.MALFORMED, DeadLetterReason.MALFORMED, DeadLetterReason.UNKNOWN_WORKER);
            bed.send(own);
            bed.send(gradient(JOB, 0, "worker-001", 0, 2, 2f, 2f));
            bed.send(gradient(JOB, 0, "worker-002", 0, 2, 2f, 2f));
            assertThat(bed.models()).extracting(ModelShard::getVersion).containsExactly(1L);
        }
    }

    @Test
    void shouldMoveEveryContributorsClockWhenAHostsSumIsAppliedOnArrival() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: an ASP job of three workers
            bed.submit(JobSpec.newBuilder(linearJob(JOB, 3))
                    .setSyncMode(SyncMode.ASP)
                    .build());
            bed.models();

            // when
            bed.send(hostSum(gradient(JOB, 0, "worker-000", 0, 4, 4f, 4f), "worker-000", "worker-002"));
            bed.send(gradient(JOB, 0, "worker-002", 0, 2, 2f, 2f));

            // then: applied at once for both; worker-002's own repeat is refused
            final List<ModelShard> models = bed.models();
            assertThat(models).hasSize(1);
            assertThat(models.get(0).getClocks())
                    .containsEntry("worker-000", 1L)
                    .containsEntry("worker-002", 1L);
            assertThat(models.get(0).getClocks().getOrDefault("worker-001", 0L)).isZero();
            assertThat(bed.deadLetters.readValuesToList())
                    .extracting(DeadLetter::getReason)
                    .containsExactly(DeadLetterReason.DUPLICATE);
        }
    }

    @Test
    void shouldApplyAFloat64HostsSumToTheBitAsItsWorkersOwnGradients() {
        // given: three workers' float32 gradients whose sum float32 cannot hold (2^24 + 1 + 1)
        final GradientShard w0 = gradient(JOB, 0, "worker-000", 0, 2, 16_777_216f, 0.1f);
        final GradientShard w1 = gradient(JOB, 0, "worker-001", 0, 3, 1f, 0.2f);
        final GradientShard w2 = gradient(JOB, 0, "worker-002", 0, 3, 1f, 0.3f);
        final double[] sum = new double[2];
        for (final GradientShard own : List.of(w0, w1)) {
            final float[] values = FloatPacking.unpack(own.getValues());
            for (int i = 0; i < sum.length; i++) {
                sum[i] += values[i];
            }
        }
        final GradientShard hostSum = GradientShard.newBuilder(w0)
                .setSampleCount(5)
                .setValues(FloatPacking.packFloat64(sum, 0, sum.length))
                .setEncoding(GradientEncoding.FLOAT64)
                .setContributors(List.of("worker-000", "worker-001"))
                .build();

        // when: one aggregator hears each worker, another the sum of 000 and 001 and then 002
        final ModelShard own = appliedAfter(w0, w1, w2);
        final ModelShard summed = appliedAfter(hostSum, w2);

        // then
        assertThat(summed.getValues()).isEqualTo(own.getValues());
        assertThat(summed.getClocks()).isEqualTo(own.getClocks());
    }

    @Test
    void shouldRefuseFloat64ValuesThatAreNotAHostsSum() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.submit(linearJob(JOB, 2));
            bed.models();

            // when: a worker's own gradient as float64, alone and as a "sum" of itself, and a sum of the wrong length
            final GradientShard own = GradientShard.newBuilder(gradient(JOB, 0, "worker-000", 0, 2, 1f, 1f))
                    .setValues(FloatPacking.packFloat64(new double[] {1, 1}, 0, 2))
                    .setEncoding(GradientEncoding.FLOAT64)
                    .build();
            bed.send(own);
            bed.send(hostSum(own, "worker-000"));
            bed.send(GradientShard.newBuilder(
                            hostSum(gradient(JOB, 0, "worker-000", 0, 2, 1f, 1f), "worker-000", "worker-001"))
                    .setEncoding(GradientEncoding.FLOAT64)
                    .build());

            // then
            assertThat(bed.deadLetters.readValuesToList())
                    .extracting(DeadLetter::getReason, DeadLetter::getError)
                    .containsExactly(
                            tuple(
                                    DeadLetterReason.MALFORMED,
                                    "encoding FLOAT64 is for a host's sum of two or more workers, and this"
                                            + " gradient names 0 contributors"),
                            tuple(
                                    DeadLetterReason.MALFORMED,
                                    "encoding FLOAT64 is for a host's sum of two or more workers, and this"
                                            + " gradient names 1 contributors"),
                            tuple(
                                    DeadLetterReason.WRONG_LENGTH,
                                    "shard 0 has 2 parameters but the gradient has 1" + " values"));
            assertThat(bed.models()).isEmpty();
        }
    }

    /** The model of shard 0 after a three-worker job's aggregator has read {@code gradients}. */
    private static ModelShard appliedAfter(final GradientShard... gradients) {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            bed.submit(linearJob(JOB, 3));
            bed.models();
            for (final GradientShard gradient : gradients) {
                bed.send(gradient);
            }
            assertThat(bed.deadLetters.readValuesToList()).isEmpty();
            return shardOf(bed.models(), 0);
        }
    }

    private static GradientShard hostSum(final GradientShard gradient, final String... contributors) {
        return GradientShard.newBuilder(gradient)
                .setContributors(List.of(contributors))
                .build();
    }

    private static ModelShard shardOf(final List<ModelShard> models, final int shard) {
        return models.stream().filter(m -> m.getShard() == shard).findFirst().orElseThrow();
    }
}
