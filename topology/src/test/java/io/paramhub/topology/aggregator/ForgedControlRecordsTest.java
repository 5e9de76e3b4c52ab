package io.paramhub.topology.aggregator;

import static io.paramhub.topology.aggregator.AggregatorTestBed.gradient;
import static io.paramhub.topology.aggregator.AggregatorTestBed.linearJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.WorkerState;
import io.paramhub.topology.jobs.PlanChecks;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Well-formed control records the orchestrator or a worker cannot have written, as the aggregator reads them: each
 * goes to {@code dead-letters} with its reason, and none changes the plan or the live set.
 */
class ForgedControlRecordsTest {

    private static final String JOB = "j";
    private static final long T0 = 1_700_000_000_000L;
    private static final Map<String, Double> SPEEDS = Map.of("worker-000", 700.0, "worker-001", 300.0);

    @Test
    void shouldDeadLetterCommandsNoOrchestratorIssuesAndKeepThePlanOut() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.submit(linearJob(JOB, 2));
            bed.models();

            // when: empty speeds, a negative share, a NaN share, a share above one, threads past the cap, a stranger
            send(bed, command("worker-000", 0, 1.0, 1, Map.of()));
            send(bed, command("worker-000", 0, -0.5, 1, SPEEDS));
            send(bed, command("worker-000", 0, Double.NaN, 1, SPEEDS));
            send(bed, command("worker-000", 0, 1.5, 1, SPEEDS));
            send(bed, command("worker-000", 0, 0.5, 1_000_000, SPEEDS));
            send(bed, command("worker-000", 0, 0.5, 0, SPEEDS));
            send(bed, command("worker-099", 0, 0.5, 1, SPEEDS));
            completeClockZero(bed);

            // then
            final List<DeadLetter> letters = bed.deadLetters.readValuesToList();
            assertThat(letters).hasSize(7).allSatisfy(letter -> {
                assertThat(letter.getReason()).isEqualTo(DeadLetterReason.INVALID_COMMAND);
                assertThat(letter.getSourceTopic())
                        .isEqualTo(bed.topics.commands().name());
            });
            assertThat(letters.get(0).getError()).contains("speeds are empty");
            assertThat(letters.get(4).getError()).contains("not between 1 and " + PlanChecks.MAX_THREADS);
            assertThat(shard0(bed.models()).getShares()).isEmpty();
        }
    }

    @Test
    void shouldRefuseAMaximumEpochAndStillTakeTheOrchestratorsPlan() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.submit(linearJob(JOB, 2));
            bed.models();

            // when: a forged plan at the maximum epoch, then the orchestrator's first plan
            send(bed, command("worker-000", Long.MAX_VALUE, 0.5, 1, SPEEDS));
            send(bed, command("worker-001", Long.MAX_VALUE, 0.5, 1, SPEEDS));
            send(bed, command("worker-000", 0, 0.7, 1, SPEEDS));
            send(bed, command("worker-001", 0, 0.3, 2, SPEEDS));
            completeClockZero(bed);

            // then
            assertThat(bed.deadLetters.readValuesToList()).hasSize(2).allSatisfy(letter -> {
                assertThat(letter.getReason()).isEqualTo(DeadLetterReason.INVALID_COMMAND);
                assertThat(letter.getError()).contains("epoch " + Long.MAX_VALUE);
            });
            final ModelShard first = shard0(bed.models());
            assertThat(first.getPlanEpoch()).isZero();
            assertThat(first.getShares()).containsEntry("worker-000", 0.7).containsEntry("worker-001", 0.3);
        }
    }

    @Test
    void shouldRefuseAnEpochThatSkipsAheadOfThePlanInForce() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: plan 0 in force
            bed.submit(linearJob(JOB, 2));
            bed.models();
            send(bed, command("worker-000", 0, 0.7, 1, SPEEDS));
            send(bed, command("worker-001", 0, 0.3, 1, SPEEDS));

            // when: a command of plan 2, then plan 1's
            send(bed, command("worker-000", 2, 0.9, 1, SPEEDS));
            send(bed, command("worker-000", 1, 0.6, 1, SPEEDS));
            send(bed, command("worker-001", 1, 0.4, 1, SPEEDS));
            completeClockZero(bed);

            // then
            assertThat(bed.deadLetters.readValuesToList())
                    .singleElement()
                    .satisfies(letter -> assertThat(letter.getError()).contains("skips ahead of plan 0"));
            assertThat(shard0(bed.models()).getPlanEpoch()).isEqualTo(1);
        }
    }

    @Test
    void shouldRefuseAPlanWhoseSharesDoNotSumToOne() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.submit(linearJob(JOB, 2));
            bed.models();

            // when: each share valid, together 1.5
            send(bed, command("worker-000", 0, 0.75, 1, SPEEDS));
            send(bed, command("worker-001", 0, 0.75, 1, SPEEDS));
            completeClockZero(bed);

            // then: refused once whole, no plan in force
            assertThat(bed.deadLetters.readValuesToList()).singleElement().satisfies(letter -> {
                assertThat(letter.getReason()).isEqualTo(DeadLetterReason.INVALID_COMMAND);
                assertThat(letter.getError()).contains("sum to 1.5");
            });
            assertThat(shard0(bed.models()).getShares()).isEmpty();
        }
    }

    @Test
    void shouldDeadLetterMembershipOfAWorkerBeyondTheJobsCount() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given
            bed.submit(linearJob(JOB, 2));
            bed.models();

            // when
            bed.member(JOB, "worker-002", WorkerState.JOINED, T0);
            bed.member(JOB, "worker-099", WorkerState.LEFT, T0);

            // then
            assertThat(bed.deadLetters.readValuesToList())
                    .extracting(DeadLetter::getReason)
                    .containsExactly(DeadLetterReason.UNKNOWN_WORKER, DeadLetterReason.UNKNOWN_WORKER);
        }
    }

    @Test
    void shouldRefuseADepartureBelowTheClocksAppliedAndKeepTheWorkerInTheBarrier() {
        try (AggregatorTestBed bed = new AggregatorTestBed()) {
            // given: both workers joined, clock 0 applied
            bed.submit(linearJob(JOB, 2));
            bed.models();
            bed.member(JOB, "worker-000", WorkerState.JOINED, T0);
            bed.member(JOB, "worker-001", WorkerState.JOINED, T0);
            completeClockZero(bed);
            bed.models();

            // when: a LEFT of worker-001 at clock 0, then worker-000's gradient of clock 1
            bed.left(JOB, "worker-001", 0, false, T0 + 20);
            bed.send(gradient(JOB, 0, "worker-000", 1, 4, 1f, 2f), T0 + 21);

            // then: set aside once (by shard 0), and clock 1 still waits for worker-001
            assertThat(bed.deadLetters.readValuesToList()).singleElement().satisfies(letter -> {
                assertThat(letter.getReason()).isEqualTo(DeadLetterReason.STALE);
                assertThat(letter.getError()).contains("LEFT of worker-001 at clock 0");
            });
            assertThat(bed.models()).isEmpty();
            bed.send(gradient(JOB, 0, "worker-001", 1, 4, 1f, 2f), T0 + 22);
            assertThat(bed.models())
                    .singleElement()
                    .satisfies(model -> assertThat(model.getVersion()).isEqualTo(2));
        }
    }

    /** Both workers' gradients of clock 0 on both shards. */
    private static void completeClockZero(final AggregatorTestBed bed) {
        for (int shard = 0; shard < 2; shard++) {
            bed.send(gradient(JOB, shard, "worker-000", 0, 4, 1f, 2f), T0 + 10);
            bed.send(gradient(JOB, shard, "worker-001", 0, 4, 1f, 2f), T0 + 10);
        }
    }

    private static void send(final AggregatorTestBed bed, final ResourceCommand command) {
        bed.commands.pipeInput(JOB + "/" + command.getWorker(), command, T0 + 1);
    }

    private static ModelShard shard0(final List<ModelShard> models) {
        return models.stream()
                .filter(model -> model.getShard() == 0 && model.getVersion() == 1)
                .findFirst()
                .orElseThrow();
    }

    private static ResourceCommand command(
            final String worker,
            final long epoch,
            final double share,
            final int threads,
            final Map<String, Double> speeds) {
        return ResourceCommand.newBuilder()
                .setJob(JOB)
                .setWorker(worker)
                .setEpoch(epoch)
                .setThreads(threads)
                .setBatchShare(share)
                .setReason("test plan")
                .setSpeeds(speeds)
                .setIssuedAt(Instant.ofEpochMilli(T0))
                .build();
    }
}
