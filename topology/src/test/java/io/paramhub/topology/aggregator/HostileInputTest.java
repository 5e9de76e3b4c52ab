package io.paramhub.topology.aggregator;

import static io.paramhub.topology.aggregator.AggregatorTestBed.gradient;
import static io.paramhub.topology.aggregator.AggregatorTestBed.linearJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.WorkerState;
import io.paramhub.topology.sync.SyncPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a client that writes to ParamHub's topics as it likes cannot do to a BSP job: speak as a worker
 * outside the job, park a gradient far in the future, post-date a heartbeat to drop the other workers, or
 * start an invalid job. Each such record goes to {@code dead-letters} with its reason.
 */
class HostileInputTest {

    private static final String JOB = "j";
    private static final long T0 = 1_700_000_000_000L;

    @Test
    void shouldDeadLetterAGradientFromAWorkerOutsideTheJobAndNeverWaitForIt() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.submit(linearJob(JOB, 2));
            bed.models();

            // when
            bed.send(gradient(JOB, 0, "worker-099", 0, 4, 1f, 2f), T0);
            bed.send(gradient(JOB, 0, "worker-000", 0, 4, 1f, 2f), T0);
            bed.send(gradient(JOB, 0, "worker-001", 0, 4, 1f, 2f), T0);

            // then
            final List<DeadLetter> letters = bed.deadLetters.readValuesToList();
            assertThat(letters).singleElement().satisfies(letter -> {
                assertThat(letter.getReason()).isEqualTo(DeadLetterReason.UNKNOWN_WORKER);
                assertThat(letter.getError()).contains("worker-099");
            });
            final List<ModelShard> models = bed.models();
            assertThat(models).singleElement().satisfies(model -> {
                assertThat(model.getVersion()).isEqualTo(1);
                assertThat(model.getClocks()).containsOnlyKeys("worker-000", "worker-001");
            });
        }
    }

    @Test
    void shouldDeadLetterAGradientBeyondTheAheadBoundButBufferOneAtIt() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: BSP, the shard's minClock is 0
            final JobSpec spec = linearJob(JOB, 2);
            bed.submit(spec);
            bed.models();
            final long bound = SyncPolicy.of(spec).aheadBound();

            // when
            bed.send(gradient(JOB, 0, "worker-000", 1_000_000, 4, 1f, 2f), T0);
            bed.send(gradient(JOB, 0, "worker-000", bound + 1, 4, 1f, 2f), T0);
            bed.send(gradient(JOB, 0, "worker-000", bound, 4, 1f, 2f), T0);

            // then
            assertThat(bed.deadLetters.readValuesToList())
                    .extracting(DeadLetter::getReason)
                    .containsExactly(DeadLetterReason.CLOCK_AHEAD, DeadLetterReason.CLOCK_AHEAD);
            assertThat(bound).isEqualTo(SyncPolicy.ROLLBACK_CLOCKS);
        }
    }

    @Test
    void shouldApplyTheClockOnceTheFarFutureGradientIsSetAside() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.submit(linearJob(JOB, 2));
            bed.models();
            bed.send(gradient(JOB, 0, "worker-001", 1_000_000, 4, 9f, 9f), T0);

            // when
            bed.send(gradient(JOB, 0, "worker-000", 0, 4, 1f, 2f), T0);
            bed.send(gradient(JOB, 0, "worker-001", 0, 4, 1f, 2f), T0);

            // then: the far-future gradient neither counts as worker-001's clock 0 nor is applied
            final List<ModelShard> models = bed.models();
            assertThat(models)
                    .singleElement()
                    .satisfies(model -> assertThat(model.getClocks())
                            .containsEntry("worker-000", 1L)
                            .containsEntry("worker-001", 1L));
        }
    }

    @Test
    void shouldDeadLetterAHeartbeatStampedFarFromTheBrokersTime() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.submit(linearJob(JOB, 2));
            bed.models();

            // when: the worker's stamp 60 s ahead of the broker's append time
            bed.member(JOB, "worker-001", WorkerState.HEARTBEAT, T0 + 60_000, T0);

            // then
            assertThat(bed.deadLetters.readValuesToList()).singleElement().satisfies(letter -> {
                assertThat(letter.getReason()).isEqualTo(DeadLetterReason.CLOCK_SKEW);
                assertThat(letter.getSourceTopic())
                        .isEqualTo(bed.topics.membership().name());
                assertThat(letter.getOriginalBytes()).isNotNull();
            });
        }
    }

    @Test
    void shouldNotLetAHeartbeatStampedAheadDropTheOtherWorkers() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: both workers joined at T0
            bed.submit(linearJob(JOB, 2));
            bed.models();
            bed.member(JOB, "worker-000", WorkerState.JOINED, T0, T0);
            bed.member(JOB, "worker-001", WorkerState.JOINED, T0, T0);

            // when: a heartbeat for worker-001 stamped a minute ahead, then worker-001's gradient alone
            bed.member(JOB, "worker-001", WorkerState.HEARTBEAT, T0 + 60_000, T0 + 1);
            bed.send(gradient(JOB, 0, "worker-001", 0, 4, 1f, 2f), T0 + 2);

            // then: the clock still waits for worker-000, and is applied with it
            assertThat(bed.deadLetters.readValuesToList())
                    .extracting(DeadLetter::getReason)
                    .containsExactly(DeadLetterReason.CLOCK_SKEW);
            assertThat(bed.models()).isEmpty();
            bed.send(gradient(JOB, 0, "worker-000", 0, 4, 1f, 2f), T0 + 3);
            assertThat(bed.models())
                    .singleElement()
                    .satisfies(model -> assertThat(model.getClocks()).containsOnlyKeys("worker-000", "worker-001"));
        }
    }

    @Test
    void shouldDeadLetterAnInvalidJobInsteadOfStartingIt() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            final JobSpec invalid = JobSpec.newBuilder(linearJob(JOB, 2))
                    .setDataset("fashion-mnist:/usr/share/datasets/../../../etc")
                    .setExpectedWorkers(5_000)
                    .build();

            // when
            bed.submit(invalid);

            // then
            assertThat(bed.models()).isEmpty();
            assertThat(bed.deadLetters.readValuesToList()).singleElement().satisfies(letter -> {
                assertThat(letter.getReason()).isEqualTo(DeadLetterReason.INVALID_JOB);
                assertThat(letter.getSourceTopic()).isEqualTo(bed.topics.jobs().name());
                assertThat(letter.getError()).contains("expectedWorkers", "..");
            });
        }
    }
}
