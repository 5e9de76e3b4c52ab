package io.paramhub.topology.aggregator;

import static io.paramhub.topology.aggregator.AggregatorTestBed.gradient;
import static io.paramhub.topology.aggregator.AggregatorTestBed.linearJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A hybrid job's shards: each BSP barrier waits for the workers of the stage that owns the shard, and only those. */
class HybridBarrierTest {

    private static final String JOB = "job-h";
    private static final long T0 = 1_800_000_000_000L;
    private static final float[] SIX = {1, 1, 1, 1, 1, 1};
    private static final float[] EIGHT = {2, 2, 2, 2, 2, 2, 2, 2};

    /**
     * An MLP 3-2-2 (14 parameters) cut into 2 stages: layer 0 (8 parameters, shard 0) and layer 1 (6, shard 1);
     * 4 workers, 2 replicas: worker-000 and worker-002 compute stage 0, worker-001 and worker-003 stage 1.
     */
    private static JobSpec job() {
        return JobSpec.newBuilder(linearJob(JOB, 4))
                .setModel("mlp:2")
                .setOutputs(2)
                .setParameters(14)
                .setShards(2)
                .setStages(2)
                .setSessionTimeoutMs(60_000)
                .build();
    }

    private static Map<Integer, ModelShard> newest(final List<ModelShard> published) {
        return published.stream().collect(Collectors.toMap(ModelShard::getShard, Function.identity(), (a, b) -> b));
    }

    @Test
    void shouldApplyAShardsClockOnceTheWorkersOfItsStageAreIn() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.jobs.pipeInput(JOB, job(), T0);
            final Map<Integer, ModelShard> initial = newest(bed.models());
            final float[] first = FloatPacking.unpack(initial.get(0).getValues());

            // when stage 0's two workers send clock 0 for shard 0, stage 1's nothing yet
            bed.send(gradient(JOB, 0, "worker-000", 0, 32, EIGHT), T0 + 1);
            final List<ModelShard> afterOne = bed.models();
            bed.send(gradient(JOB, 0, "worker-002", 0, 32, EIGHT), T0 + 2);
            final Map<Integer, ModelShard> afterStage0 = newest(bed.models());

            // then shard 0 steps without waiting for stage 1: the two gradients summed over their 64 samples
            assertThat(initial.get(0).getFirstParameter()).isZero();
            assertThat(initial.get(1).getFirstParameter()).isEqualTo(8);
            assertThat(afterOne).isEmpty();
            assertThat(afterStage0).containsOnlyKeys(0);
            assertThat(afterStage0.get(0).getVersion()).isEqualTo(1);
            final float[] stepped = FloatPacking.unpack(afterStage0.get(0).getValues());
            for (int i = 0; i < stepped.length; i++) {
                assertThat(stepped[i]).isEqualTo(first[i] - 0.5f * (float) (4.0 / 64));
            }

            // when stage 1's workers send clock 0 for shard 1
            bed.send(gradient(JOB, 1, "worker-001", 0, 32, SIX), T0 + 3);
            bed.send(gradient(JOB, 1, "worker-003", 0, 32, SIX), T0 + 4);

            // then
            assertThat(newest(bed.models()).get(1).getVersion()).isEqualTo(1);
            assertThat(bed.deadLetters.readValuesToList()).isEmpty();
        }
    }

    @Test
    void shouldDeadLetterAGradientFromAWorkerOfAnotherStage() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.jobs.pipeInput(JOB, job(), T0);
            bed.models();

            // when worker-001 (stage 1) sends a gradient for shard 0 (stage 0's)
            bed.send(gradient(JOB, 0, "worker-001", 0, 32, EIGHT), T0 + 1);

            // then
            final List<DeadLetter> letters = bed.deadLetters.readValuesToList();
            assertThat(letters).hasSize(1);
            assertThat(letters.get(0).getReason()).isEqualTo(DeadLetterReason.UNKNOWN_WORKER);
            assertThat(letters.get(0).getError()).contains("stage 0");
            assertThat(bed.models()).isEmpty();
        }
    }
}
