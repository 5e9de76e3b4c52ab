package io.paramhub.topology.aggregator;

import static io.paramhub.topology.aggregator.AggregatorTestBed.gradient;
import static io.paramhub.topology.aggregator.AggregatorTestBed.linearJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.ModelShard;
import io.paramhub.ml.LinearRegression;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.client.ModelHeaders;
import io.paramhub.topology.jobs.ExternalJobs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

class AggregatorTopologyTest {

    private static final String JOB = "job-a";

    @Test
    void shouldPublishVersionZeroOfEveryShardWhenJobIsSubmitted() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            final JobSpec spec = linearJob(JOB, 3);
            final float[] initial = new LinearRegression(3).initialParameters(spec.getSeed());

            // when
            bed.submit(spec);

            // then
            final List<ModelShard> published = bed.models();
            assertThat(published).extracting(ModelShard::getShard).containsExactlyInAnyOrder(0, 1);
            assertThat(published).allSatisfy(shard -> {
                assertThat(shard.getVersion()).isZero();
                assertThat(shard.getMinClock()).isZero();
                assertThat(shard.getShards()).isEqualTo(2);
            });
            final float[] assembled = new float[4];
            for (final ModelShard shard : published) {
                final float[] values = FloatPacking.unpack(shard.getValues());
                System.arraycopy(values, 0, assembled, shard.getFirstParameter(), values.length);
            }
            assertThat(assembled).containsExactly(initial);
        }
    }

    @Test
    void shouldApplyClockOnlyWhenEveryExpectedWorkerGradientIsIn() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            final JobSpec spec = linearJob(JOB, 3);
            bed.submit(spec);
            final float[] before = FloatPacking.unpack(shardOf(bed.models(), 0).getValues());

            // when
            bed.send(gradient(JOB, 0, "worker-000", 0, 2, 2f, 4f));
            bed.send(gradient(JOB, 0, "worker-001", 0, 3, 3f, 6f));
            final List<ModelShard> afterTwo = bed.models();
            bed.send(gradient(JOB, 0, "worker-002", 0, 3, 3f, 6f));
            final List<ModelShard> afterThree = bed.models();

            // then
            assertThat(afterTwo).isEmpty();
            assertThat(afterThree).hasSize(1);
            final ModelShard updated = afterThree.get(0);
            assertThat(updated.getVersion()).isEqualTo(1);
            assertThat(updated.getMinClock()).isEqualTo(1);
            assertThat(bed.metrics.appliedCount()).isEqualTo(3);
            assertThat(bed.metrics.modelVersion(JOB, 0)).isEqualTo(1);
            // mean gradient = (2+3+3, 4+6+6) / 8 samples = (1, 2); plain SGD with lr 0.5
            assertThat(FloatPacking.unpack(updated.getValues()))
                    .containsExactly(before[0] - 0.5f * 1f, before[1] - 0.5f * 2f);
        }
    }

    @Test
    void shouldHeadEveryModelRecordWithItsMinClock() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.submit(linearJob(JOB, 2));
            bed.send(gradient(JOB, 0, "worker-000", 0, 2, 2f, 4f));
            bed.send(gradient(JOB, 0, "worker-001", 0, 2, 2f, 4f));

            // when
            final List<TestRecord<String, ModelShard>> records = bed.model.readRecordsToList();

            // then: versions 0 of both shards and version 1 of shard 0, each headed with its own minClock
            assertThat(records).hasSize(3);
            for (final TestRecord<String, ModelShard> record : records) {
                assertThat(ModelHeaders.minClock(record.headers()))
                        .isEqualTo(record.value().getMinClock());
            }
            assertThat(records)
                    .extracting(record -> record.value().getMinClock())
                    .containsExactlyInAnyOrder(0L, 0L, 1L);
        }
    }

    @Test
    void shouldScaleEachClocksStepByTheCosineScheduleAtThatClock() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: one worker, plain SGD at lr 0.5, the rate annealed over 4 clocks
            final JobSpec spec = JobSpec.newBuilder(linearJob(JOB, 1))
                    .setLearningRateSchedule(LearningRateScheduleKind.COSINE)
                    .setDecayClocks(4)
                    .build();
            bed.submit(spec);
            float expected = FloatPacking.unpack(shardOf(bed.models(), 0).getValues())[0];

            for (int clock = 0; clock < 3; clock++) {
                // when: the same mean gradient (1, 2) every clock
                bed.send(gradient(JOB, 0, "worker-000", clock, 8, 8f, 16f));
                final float[] values =
                        FloatPacking.unpack(shardOf(bed.models(), 0).getValues());

                // then: the step of clock c is 0.5 x (1 + cos(pi c / 4)) / 2 x 1
                final double factor = (1 + Math.cos(Math.PI * clock / 4)) / 2;
                expected = (float) (expected - 0.5 * factor * 1f);
                assertThat(values[0]).as("clock %d", clock).isEqualTo(expected);
            }
        }
    }

    @Test
    void shouldPublishIdenticalModelWhateverOrderGradientsArriveIn() {
        // given
        // the first value of each shard cancels: 1e17 + 3 - 1e17 + 3 is 3 or 6 depending on the order
        final float[] cancelling = {1e17f, 3f, -1e17f, 3f};
        final List<GradientShard> gradients = new ArrayList<>();
        final Random random = new Random(11);
        for (int clock = 0; clock < 5; clock++) {
            for (int worker = 0; worker < 4; worker++) {
                for (int shard = 0; shard < 2; shard++) {
                    gradients.add(gradient(
                            JOB,
                            shard,
                            String.format("worker-%03d", worker),
                            clock,
                            1 + random.nextInt(5),
                            cancelling[worker],
                            spread(random)));
                }
            }
        }

        // when
        final List<byte[]> inOrder = finalShards(inClockOrder(gradients, new Random(1)));
        final List<byte[]> shuffled = finalShards(inClockOrder(gradients, new Random(2)));
        final List<byte[]> reversed = finalShards(inClockOrder(gradients, null));

        // then
        assertThat(shuffled).containsExactlyElementsOf(inOrder);
        assertThat(reversed).containsExactlyElementsOf(inOrder);
    }

    @Test
    void shouldDeadLetterGradientsThatCannotBeApplied() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.submit(linearJob(JOB, 2));
            bed.models();
            bed.send(gradient(JOB, 0, "worker-000", 0, 1, 1f, 1f));

            // when
            bed.send(gradient(JOB, 0, "worker-000", 0, 1, 1f, 1f));
            bed.send(gradient(JOB, 0, "worker-001", 0, 1, 1f, 1f, 1f));
            bed.send(gradient(JOB, 0, "worker-001", 0, 1, Float.NaN, 1f));
            bed.send(gradient("no-such-job", 0, "worker-001", 0, 1, 1f, 1f));
            bed.sendRaw(ShardKeys.shard(JOB, 0), "not avro".getBytes(StandardCharsets.UTF_8));
            bed.sendRaw(ShardKeys.shard(JOB, 0), new byte[] {0, 0, 0, 0x7f, 1, 2, 3});
            bed.send(gradient(JOB, 0, "worker-001", 0, 1, 3f, 3f));
            bed.send(gradient(JOB, 0, "worker-001", 0, 1, 3f, 3f));

            // then
            final List<DeadLetter> letters = bed.deadLetters.readValuesToList();
            assertThat(letters)
                    .extracting(DeadLetter::getReason)
                    .containsExactly(
                            DeadLetterReason.DUPLICATE,
                            DeadLetterReason.WRONG_LENGTH,
                            DeadLetterReason.NON_FINITE,
                            DeadLetterReason.UNKNOWN_JOB,
                            DeadLetterReason.MALFORMED,
                            DeadLetterReason.UNKNOWN_SCHEMA,
                            DeadLetterReason.DUPLICATE);
            assertThat(letters.get(4).getOriginalBytes().array())
                    .isEqualTo("not avro".getBytes(StandardCharsets.UTF_8));
            assertThat(letters)
                    .allSatisfy(letter -> assertThat(letter.getSourceTopic())
                            .isEqualTo(bed.topics.gradients().name()));
            final List<ModelShard> models = bed.models();
            assertThat(models).hasSize(1);
            assertThat(models.get(0).getVersion()).isEqualTo(1);
        }
    }

    @Test
    void shouldNameEveryStoreAndTopicExplicitly() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // when
            final String description = AggregatorTopology.build(bed.topics, SerdeFactory.forRegistry("mock://naming"))
                    .describe()
                    .toString();

            // then
            assertThat(description)
                    .contains(
                            AggregatorTopology.SHARD_JOB_STORE,
                            AggregatorTopology.SHARD_STATE_STORE,
                            AggregatorTopology.SHARD_MEMBER_STORE,
                            AggregatorTopology.SHARD_PROCESSOR,
                            "job-fanout");
            assertThat(description).doesNotContain("KSTREAM-", "KTABLE-");
        }
    }

    @Test
    void shouldServeEveryShardFromOneSubtopologyWithItsJob() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // when
            final TopologyDescription description = AggregatorTopology.build(
                            bed.topics, SerdeFactory.forRegistry("mock://subtopologies"))
                    .describe();

            // then
            assertThat(description.subtopologies()).hasSize(2);
            assertThat(description.subtopologies())
                    .anySatisfy(sub -> assertThat(sub.nodes())
                            .filteredOn(node -> node instanceof TopologyDescription.Source)
                            .extracting(node -> ((TopologyDescription.Source) node).topicSet())
                            .containsExactlyInAnyOrder(
                                    Set.of(bed.topics.shardJobs().name()),
                                    Set.of(bed.topics.shardMembership().name()),
                                    Set.of(bed.topics.shardCommands().name()),
                                    Set.of(bed.topics.gradients().name())));
        }
    }

    /** Magnitudes from 1e-9 to 1e9 with either sign, so that a sum's result depends on its order. */
    private static float spread(final Random random) {
        return (random.nextBoolean() ? 1 : -1) * random.nextFloat() * (float) Math.pow(10, random.nextInt(19) - 9);
    }

    /** Clock by clock (the barrier holds workers back), each clock's gradients shuffled or reversed. */
    private static List<GradientShard> inClockOrder(final List<GradientShard> gradients, final Random shuffle) {
        final List<GradientShard> ordered = new ArrayList<>();
        for (long clock = 0; clock < 5; clock++) {
            final List<GradientShard> ofClock = new ArrayList<>();
            for (final GradientShard gradient : gradients) {
                if (gradient.getClock() == clock) {
                    ofClock.add(gradient);
                }
            }
            if (shuffle == null) {
                Collections.reverse(ofClock);
            } else {
                Collections.shuffle(ofClock, shuffle);
            }
            ordered.addAll(ofClock);
        }
        return ordered;
    }

    private static List<byte[]> finalShards(final List<GradientShard> arrivals) {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            bed.submit(linearJob(JOB, 4));
            for (final GradientShard gradient : arrivals) {
                bed.send(gradient);
            }
            final List<ModelShard> models = bed.models();
            final List<byte[]> last = new ArrayList<>();
            for (int shard = 0; shard < 2; shard++) {
                final ModelShard newest = shardOf(models.subList(models.size() - 2, models.size()), shard);
                assertThat(newest.getVersion()).isEqualTo(5);
                last.add(
                        FloatPacking.unpack(newest.getValues()).length == 0
                                ? new byte[0]
                                : newest.getValues().array());
            }
            return last;
        }
    }

    private static ModelShard shardOf(final List<ModelShard> models, final int shard) {
        return models.stream()
                .filter(model -> model.getShard() == shard)
                .reduce((a, b) -> b)
                .orElseThrow();
    }

    @Test
    void shouldSeedExternalModelFromItsSpecAndStepItLikeAnyOther() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: an external model whose version 0 comes with its spec (3 shards of 3, 3, 2 values)
            final JobSpec spec = ExternalJobs.external().setJob(JOB).build();
            final float[] initial = FloatPacking.unpack(spec.getInitialParameters());

            // when
            bed.submit(spec);
            final List<ModelShard> versionZero = bed.models();
            bed.send(gradient(JOB, 2, "worker-000", 0, 4, 4f, 8f));
            bed.send(gradient(JOB, 2, "worker-001", 0, 4, 4f, 0f));
            final List<ModelShard> versionOne = bed.models();

            // then: version 0 is the submitter's, and a clock is one SGD step on the mean gradient (1, 1)
            final float[] assembled = new float[8];
            for (final ModelShard shard : versionZero) {
                final float[] values = FloatPacking.unpack(shard.getValues());
                System.arraycopy(values, 0, assembled, shard.getFirstParameter(), values.length);
            }
            assertThat(assembled).containsExactly(initial);
            assertThat(versionOne).singleElement().satisfies(shard -> {
                assertThat(shard.getShard()).isEqualTo(2);
                assertThat(FloatPacking.unpack(shard.getValues()))
                        .containsExactly(initial[6] - 0.1f * 1f, initial[7] - 0.1f * 1f);
            });
        }
    }

    @Test
    void shouldCountEmptyShareInBarrierWhenWorkerHasNoSamples() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: a plan can leave a worker with no sample of a clock; it still answers the barrier
            bed.submit(linearJob(JOB, 2));
            final float[] before = FloatPacking.unpack(shardOf(bed.models(), 0).getValues());

            // when
            bed.send(gradient(JOB, 0, "worker-000", 0, 8, 8f, 16f));
            bed.send(gradient(JOB, 0, "worker-001", 0, 0, 0f, 0f));
            bed.send(gradient(JOB, 1, "worker-001", 0, 0, 1f, 0f));

            // then: the clock is the 8 samples' step; a "0-sample" gradient with values is refused
            assertThat(bed.models())
                    .singleElement()
                    .satisfies(shard -> assertThat(FloatPacking.unpack(shard.getValues()))
                            .containsExactly(before[0] - 0.5f * 1f, before[1] - 0.5f * 2f));
            assertThat(bed.deadLetters.readValuesToList())
                    .singleElement()
                    .satisfies(letter -> assertThat(letter.getReason()).isEqualTo(DeadLetterReason.MALFORMED));
        }
    }
}
