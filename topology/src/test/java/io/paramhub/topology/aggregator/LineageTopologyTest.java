package io.paramhub.topology.aggregator;

import static io.paramhub.topology.aggregator.AggregatorTestBed.gradient;
import static io.paramhub.topology.aggregator.AggregatorTestBed.linearJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OffsetRange;
import io.paramhub.avro.SyncMode;
import io.paramhub.avro.WorkerState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A topic-mode job through the aggregator topology: shard 0's versions carry the merged offset ranges of the
 * gradients they applied ({@code ModelShard.examples}), the instance's {@link LineageHistory} keeps them, and a
 * gradient that names examples trained already goes to {@code dead-letters} as {@code DUPLICATE}.
 */
class LineageTopologyTest {

    private static final String JOB = "job-l";
    private static final long T0 = 1_800_000_000_000L;

    /** Two workers, BSP (or {@code mode}), reading partitions 0 and 1 of a data topic. */
    private static JobSpec topicJob(final SyncMode mode) {
        return JobSpec.newBuilder(linearJob(JOB, 2))
                .setDataset("topic:readings,features=x,label=y,task=regression")
                .setSyncMode(mode)
                .setStaleness(mode == SyncMode.SSP ? 2 : 0)
                .build();
    }

    private static OffsetRange range(final int partition, final long start, final long end) {
        return new OffsetRange(partition, start, end);
    }

    /** Both shards' gradients of {@code worker} at {@code clock}; shard 0's names {@code examples}. */
    private static void send(
            final AggregatorTestBed bed,
            final String worker,
            final long clock,
            final long time,
            final OffsetRange... examples) {
        bed.send(
                GradientShard.newBuilder(gradient(JOB, 0, worker, clock, 4, 1f, 2f))
                        .setExamples(List.of(examples))
                        .build(),
                time);
        bed.send(gradient(JOB, 1, worker, clock, 4, 1f, 2f), time);
    }

    private static AggregatorTestBed started(final SyncMode mode) {
        final AggregatorTestBed bed = new AggregatorTestBed();
        bed.jobs.pipeInput(JOB, topicJob(mode), T0);
        bed.member(JOB, "worker-000", WorkerState.JOINED, T0);
        bed.member(JOB, "worker-001", WorkerState.JOINED, T0);
        bed.models();
        return bed;
    }

    private static List<ModelShard> ofShard(final List<ModelShard> models, final int shard) {
        return models.stream().filter(model -> model.getShard() == shard).toList();
    }

    @Test
    void shouldCarryTheMergedRangesOfEveryAppliedGradientOnEachShardZeroVersion() {
        try (AggregatorTestBed bed = started(SyncMode.BSP)) {
            // when: two BSP clocks; worker-000 reads partition 0, worker-001 partition 1 (a bad example at 4)
            send(bed, "worker-000", 0, T0 + 1, range(0, 0, 5));
            send(bed, "worker-001", 0, T0 + 2, range(1, 0, 4));
            send(bed, "worker-000", 1, T0 + 3, range(0, 5, 9));
            send(bed, "worker-001", 1, T0 + 4, range(1, 5, 8));
            final List<ModelShard> models = bed.models();

            // then: version 1 holds clock 0's ranges, version 2 both clocks', touching ones merged
            final List<ModelShard> shard0 = ofShard(models, 0);
            assertThat(shard0).extracting(ModelShard::getVersion).containsExactly(1L, 2L);
            assertThat(shard0.get(0).getExamples()).containsExactly(range(0, 0, 5), range(1, 0, 4));
            assertThat(shard0.get(1).getExamples()).containsExactly(range(0, 0, 9), range(1, 0, 4), range(1, 5, 8));
            assertThat(ofShard(models, 1))
                    .allSatisfy(model -> assertThat(model.getExamples()).isEmpty());
            // and the instance's history answers for both versions
            assertThat(bed.lineage.at(JOB, 1))
                    .isEqualTo(new LineageHistory.Lookup.Found(
                            1, ExampleLineage.of(shard0.get(0).getExamples())));
            assertThat(bed.lineage.at(JOB, -1))
                    .isEqualTo(new LineageHistory.Lookup.Found(
                            2, ExampleLineage.of(shard0.get(1).getExamples())));
        }
    }

    @Test
    void shouldDeadLetterAsDuplicateAGradientWhoseExamplesWereTrainedAlready() {
        try (AggregatorTestBed bed = started(SyncMode.BSP)) {
            // given: clock 0 applied, [0, 5) of partition 0 in the lineage
            send(bed, "worker-000", 0, T0 + 1, range(0, 0, 5));
            send(bed, "worker-001", 0, T0 + 2, range(1, 0, 4));
            bed.models();

            // when: worker-000's clock 1 takes offsets 3 and 4 again
            send(bed, "worker-000", 1, T0 + 3, range(0, 3, 9));

            // then: refused, naming the offsets trained twice; the shard still waits for its clock 1
            final List<DeadLetter> letters = bed.deadLetters.readValuesToList();
            assertThat(letters).hasSize(1);
            assertThat(letters.get(0).getReason()).isEqualTo(DeadLetterReason.DUPLICATE);
            assertThat(letters.get(0).getError()).contains("examples [3, 5) of partition 0");
            send(bed, "worker-001", 1, T0 + 4, range(1, 4, 8));
            assertThat(ofShard(bed.models(), 0)).isEmpty();
            assertThat(bed.lineage.at(JOB, -1))
                    .isEqualTo(new LineageHistory.Lookup.Found(
                            1, ExampleLineage.of(List.of(range(0, 0, 5), range(1, 0, 4)))));
        }
    }

    @Test
    void shouldDeadLetterAsDuplicateAGradientOverlappingOneHeldForItsClock() {
        try (AggregatorTestBed bed = started(SyncMode.BSP)) {
            // given: worker-000's clock 0 held, waiting for worker-001's
            send(bed, "worker-000", 0, T0 + 1, range(0, 0, 5));

            // when: worker-001's clock 0 names an offset of it, and then its clock 0 comes as it should
            send(bed, "worker-001", 0, T0 + 2, range(1, 0, 4), range(0, 4, 5));
            final List<DeadLetter> letters = bed.deadLetters.readValuesToList();

            // then: the first is refused; the second completes the clock
            assertThat(letters).extracting(DeadLetter::getReason).containsExactly(DeadLetterReason.DUPLICATE);
            assertThat(letters.get(0).getError()).contains("examples [4, 5) of partition 0");
            assertThat(ofShard(bed.models(), 0)).isEmpty();
            bed.send(
                    GradientShard.newBuilder(gradient(JOB, 0, "worker-001", 0, 4, 1f, 2f))
                            .setExamples(List.of(range(1, 0, 4)))
                            .build(),
                    T0 + 3);
            assertThat(ofShard(bed.models(), 0))
                    .singleElement()
                    .satisfies(
                            model -> assertThat(model.getExamples()).containsExactly(range(0, 0, 5), range(1, 0, 4)));
        }
    }

    @Test
    void shouldDeadLetterAGradientWhoseOwnRangesOverlapOrAreMalformed() {
        try (AggregatorTestBed bed = started(SyncMode.BSP)) {
            // when
            send(bed, "worker-000", 0, T0 + 1, range(0, 0, 5), range(0, 2, 3));
            send(bed, "worker-001", 0, T0 + 2, range(1, 4, 4));

            // then
            final List<DeadLetter> letters = bed.deadLetters.readValuesToList();
            assertThat(letters)
                    .extracting(DeadLetter::getReason)
                    .containsExactly(DeadLetterReason.DUPLICATE, DeadLetterReason.MALFORMED);
            assertThat(letters.get(0).getError()).contains("[2, 3) of partition 0", "named twice");
            assertThat(letters.get(1).getError()).contains("[4, 4) of partition 1");
        }
    }

    @Test
    void shouldMergeEachGradientAppliedOnArrivalUnderSsp() {
        try (AggregatorTestBed bed = started(SyncMode.SSP)) {
            // when
            send(bed, "worker-000", 0, T0 + 1, range(0, 0, 5));
            send(bed, "worker-001", 0, T0 + 2, range(1, 0, 4));
            send(bed, "worker-000", 1, T0 + 3, range(0, 2, 7));

            // then: each gradient is a version with its ranges; the third is refused
            final List<ModelShard> shard0 = ofShard(bed.models(), 0);
            assertThat(shard0.get(shard0.size() - 1).getExamples()).containsExactly(range(0, 0, 5), range(1, 0, 4));
            assertThat(shard0)
                    .extracting(ModelShard::getVersion)
                    .contains(1L, 2L)
                    .doesNotContain(3L);
            assertThat(bed.deadLetters.readValuesToList())
                    .extracting(DeadLetter::getReason)
                    .containsExactly(DeadLetterReason.DUPLICATE);
        }
    }

    @Test
    void shouldPublishNoExamplesForAJobThatTrainsOnFiles() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.jobs.pipeInput(JOB, linearJob(JOB, 1), T0);

            // when
            bed.send(gradient(JOB, 0, "worker-000", 0, 4, 1f, 2f), T0 + 1);
            bed.send(gradient(JOB, 1, "worker-000", 0, 4, 1f, 2f), T0 + 1);

            // then
            assertThat(bed.models())
                    .hasSize(4)
                    .allSatisfy(model -> assertThat(model.getExamples()).isEmpty());
            assertThat(bed.lineage.at(JOB, 1)).isEqualTo(new LineageHistory.Lookup.Found(1, ExampleLineage.empty()));
        }
    }
}
