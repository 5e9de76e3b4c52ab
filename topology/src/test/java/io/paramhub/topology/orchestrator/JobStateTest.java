package io.paramhub.topology.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.paramhub.avro.OrchestratorJobState;
import io.paramhub.topology.SerdeFactory;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class JobStateTest {

    private static final String TOPIC = "paramhub-orchestrator-orchestrator-job-store-changelog";

    /**
     * The bytes the orchestrator stored before {@code OrchestratorJobState}, written by the old
     * {@code JobState.serde()} (its format did not change from 57d5a0a to 5f4ee6f) for an
     * {@link OrchestratorTestBed} with a window of 3, a thread budget of 5 and at most 3 threads a worker:
     * 3 workers at 1000, 1000 and 250 samples/s with 10% noise ({@code new Random(7)}) after 5 clocks, one
     * plan issued, worker-002 a straggler given 3 threads.
     */
    private static final String STORED_BY_THE_OLD_CODE =
            "010000000000000000000000000000000000000000000000040000000000000003000a776f726b65722d303030000000"
                    + "0000000004000000013fd7b710c3ae2fc000000000000000003fd7b710c3ae2fc00000000100408f6688cf709cf90000"
                    + "00030000000000000002000001bd407e186676eec41e0000000000000003000001bd40799dae6d0ff222000000000000"
                    + "0004000001bd407b538653e01faf000a776f726b65722d3030310000000000000004000000013fd7cc80e7b4022c0000"
                    + "0000000000003fd7cc80e7b4022c000000010040901830f5ecab01000000030000000000000002000001be407a0d4467"
                    + "a1b3510000000000000003000001be407b1b742b058df10000000000000004000001be407c06c7be85ca72000a776f72"
                    + "6b65722d3030320000000000000004000000033fd07c6e549dce1500000000000000003fd07c6e549dce150000000301"
                    + "4086c3af2011be6800000003000000000000000200000135407c177374779a3e00000000000000030000013540785ccd"
                    + "476df891000000000000000400000135407b147e71de7067";

    private static JobStateSerde serde() {
        return new JobStateSerde(SerdeFactory.forRegistry("mock://job-state-test-" + UUID.randomUUID())
                .valueSerde(OrchestratorJobState.class));
    }

    /** A job after a plan: one worker with a window, planned and flagged, one that has not reported usably. */
    private static JobState sample() {
        final LoadPlan plan = new LoadPlan(
                new TreeMap<>(Map.of("worker-000", 900.0, "worker-001", 300.0)),
                600,
                List.of("worker-001"),
                new TreeMap<>(Map.of("worker-000", 0.65, "worker-001", 0.35)),
                new TreeMap<>(Map.of("worker-000", 1, "worker-001", 3)),
                new TreeMap<>(),
                Map.of(),
                1.0,
                0.8);
        return JobState.EMPTY
                .reported("worker-001", 13, 64, 80, 2, 0.3, 1, 3)
                .reported("worker-001", 14, 64, 90, 2, 0.3, 2, 3)
                .reported("worker-000", 14, 0, 0, 1, 0.7, 2, 3)
                .evaluatedAt(14)
                .judged(List.of("worker-001"))
                .gainHeld()
                .planIssued(12, plan)
                .gainHeld()
                .gainHeld();
    }

    @Test
    void shouldKeepOnlyLastWindowWhenComputingSpeed() {
        // when
        final JobState state = JobState.EMPTY
                .reported("worker-000", 0, 100, 1000, 1, 0.5, -1, 2)
                .reported("worker-000", 1, 100, 100, 1, 0.5, -1, 2)
                .reported("worker-000", 2, 300, 100, 1, 0.5, -1, 2);

        // then 400 samples in 0.2 compute-seconds
        final JobState.Worker worker = state.workers().get("worker-000");
        assertThat(worker.speed()).isCloseTo(2000, within(1e-9));
        assertThat(worker.windowSize()).isEqualTo(2);
        assertThat(worker.lastClock()).isEqualTo(2);
    }

    @Test
    void shouldKeepTheWindowButMoveTheClockWhenAnIterationHasNoUsableTime() {
        // given
        final JobState before = JobState.EMPTY.reported("worker-000", 0, 100, 50, 1, 0.5, -1, 4);

        // when
        final JobState after = before.reported("worker-000", 1, 100, Double.POSITIVE_INFINITY, 2, 0.4, 0, 4);

        // then
        final JobState.Worker worker = after.workers().get("worker-000");
        assertThat(worker.window()).isEqualTo(before.workers().get("worker-000").window());
        assertThat(worker.speed()).isEqualTo(2000);
        assertThat(worker.lastClock()).isEqualTo(1);
        assertThat(worker.threads()).isEqualTo(2);
        assertThat(worker.appliedPlanVersion()).isZero();
    }

    @Test
    void shouldLeaveAStateAsItWasWhenATransitionMakesTheNext() {
        // given
        final JobState before = sample();
        final JobState copy = new JobState(
                before.workers(),
                before.planVersion(),
                before.lastPlanRound(),
                before.lastEvaluatedRound(),
                before.gainStreak());

        // when
        final JobState after = before.reported("worker-000", 15, 64, 70, 1, 0.65, 0, 3)
                .judged(List.of())
                .evaluatedAt(15)
                .gainMissed();

        // then
        assertThat(before).isEqualTo(copy);
        assertThat(after).isNotEqualTo(before);
        assertThat(after.workers().get("worker-001").straggler()).isFalse();
        assertThat(before.workers().get("worker-001").straggler()).isTrue();
        assertThatThrownBy(() -> before.workers().put("worker-009", JobState.Worker.UNSEEN))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> before.workers().get("worker-001").window().clear())
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void shouldIssueThePlanAsTheNextVersion() {
        // when
        final JobState state = sample();

        // then
        assertThat(state.planVersion()).isZero();
        assertThat(state.lastPlanRound()).isEqualTo(12);
        assertThat(state.lastEvaluatedRound()).isEqualTo(14);
        assertThat(state.gainStreak()).isEqualTo(2);
        assertThat(state.workers().get("worker-001").plannedShare()).isEqualTo(0.35);
        assertThat(state.workers().get("worker-001").plannedThreads()).isEqualTo(3);
        assertThat(state.workers().get("worker-000").plannedThreads()).isEqualTo(1);
    }

    @Test
    void shouldRoundTripThroughAvro() {
        // given
        final JobStateSerde serde = serde();
        final JobState state = sample();

        // when
        final byte[] bytes = serde.serializer().serialize(TOPIC, state);
        final JobState copy = serde.deserializer().deserialize(TOPIC, bytes);

        // then: the registry's wire format, and every field back, NaN shares and empty windows included
        assertThat(bytes[0]).isZero();
        assertThat(copy).isEqualTo(state);
        assertThat(copy.workers().get("worker-000").plannedShare()).isEqualTo(0.65);
        assertThat(serde.serializer().serialize(TOPIC, copy)).isEqualTo(bytes);
        assertThat(serde.serializer().serialize(TOPIC, null)).isNull();
        assertThat(serde.deserializer().deserialize(TOPIC, null)).isNull();
    }

    @Test
    void shouldRoundTripAJobWithNoPlanYet() {
        // given
        final JobStateSerde serde = serde();
        final JobState state = JobState.EMPTY.reported("worker-000", 0, 10, 5, 1, 1.0, -1, 3);

        // when
        final JobState copy =
                serde.deserializer().deserialize(TOPIC, serde.serializer().serialize(TOPIC, state));

        // then
        assertThat(copy).isEqualTo(state);
        assertThat(copy.workers().get("worker-000").plannedShare()).isNaN();
        assertThat(copy.planVersion()).isEqualTo(JobState.NONE);
    }

    @Test
    void shouldReadAStoreTheOldCodeWrote() {
        // when
        final byte[] stored = HexFormat.of().parseHex(STORED_BY_THE_OLD_CODE);
        final JobState state = serde().deserializer().deserialize(TOPIC, stored);

        // then: what the old code held when it wrote these bytes
        assertThat(state.planVersion()).isZero();
        assertThat(state.lastPlanRound()).isZero();
        assertThat(state.lastEvaluatedRound()).isEqualTo(4);
        assertThat(state.gainStreak()).isZero();
        assertThat(state.workers()).containsOnlyKeys("worker-000", "worker-001", "worker-002");
        final JobState.Worker slow = state.workers().get("worker-002");
        assertThat(slow.lastClock()).isEqualTo(4);
        assertThat(slow.threads()).isEqualTo(3);
        assertThat(slow.share()).isEqualTo(0.2575946642238887);
        assertThat(slow.appliedPlanVersion()).isZero();
        assertThat(slow.plannedShare()).isEqualTo(0.2575946642238887);
        assertThat(slow.plannedThreads()).isEqualTo(3);
        assertThat(slow.straggler()).isTrue();
        assertThat(slow.speed()).isEqualTo(728.4605103861077);
        assertThat(slow.noise()).isEqualTo(0.043326167600561155);
        assertThat(slow.window())
                .containsExactly(
                        new JobState.Iteration(2, 309, 449.46568724364977),
                        new JobState.Iteration(3, 309, 389.8001169486752),
                        new JobState.Iteration(4, 309, 433.28087031259787));
        final JobState.Worker fast = state.workers().get("worker-000");
        assertThat(fast.straggler()).isFalse();
        assertThat(fast.threads()).isEqualTo(1);
        assertThat(fast.speed()).isEqualTo(1004.8168019102005);
        assertThat(fast.window()).hasSize(3);
        assertThat(state.workers().get("worker-001").plannedShare()).isEqualTo(0.3718569052435068);
    }

    @Test
    void shouldReadWhatTheOldWriterWritesAndStoreItAsAvro() {
        // given
        final JobStateSerde serde = serde();
        final JobState state = sample();
        final byte[] old = OldWriter.write(state);

        // when
        final JobState read = serde.deserializer().deserialize(TOPIC, old);
        final byte[] rewritten = serde.serializer().serialize(TOPIC, read);

        // then
        assertThat(old[0]).isEqualTo(JobStateSerde.LEGACY_FORMAT);
        assertThat(read).as("the old format has no cost fit").isEqualTo(withoutCostFits(state));
        assertThat(rewritten[0]).isZero();
        assertThat(serde.deserializer().deserialize(TOPIC, rewritten)).isEqualTo(read);
        final JobState noPlan = JobState.EMPTY.reported("worker-000", 0, 10, 5, 1, 1.0, -1, 3);
        assertThat(serde.deserializer().deserialize(TOPIC, OldWriter.write(noPlan)))
                .isEqualTo(withoutCostFits(noPlan));
        assertThat(OldWriter.write(JobStateSerde.readLegacy(HexFormat.of().parseHex(STORED_BY_THE_OLD_CODE))))
                .as("the writer kept here is the old one")
                .isEqualTo(HexFormat.of().parseHex(STORED_BY_THE_OLD_CODE));
    }

    @Test
    void shouldRefuseBytesInNeitherFormat() {
        // given
        final byte[] neither = {2, 0, 0, 0};

        // then
        assertThatThrownBy(() -> serde().deserializer().deserialize(TOPIC, neither))
                .isInstanceOf(SerializationException.class);
    }

    @Test
    void shouldRoundTripACostFitThatToldTheFixedPartApart() {
        // given: 20 ms a clock plus 1 ms a sample, at two shares
        JobState state = JobState.EMPTY;
        for (int clock = 0; clock < 6; clock++) {
            final int samples = clock < 3 ? 32 : 48;
            state = state.reported("worker-000", clock, samples, 20 + samples, 1, samples / 128.0, -1, 3);
        }
        final JobStateSerde serde = serde();

        // when
        final JobState copy =
                serde.deserializer().deserialize(TOPIC, serde.serializer().serialize(TOPIC, state));

        // then
        assertThat(state.workers().get("worker-000").fixedMs()).isCloseTo(20, within(1e-9));
        assertThat(state.workers().get("worker-000").speed()).isCloseTo(1000, within(1e-9));
        assertThat(copy).isEqualTo(state);
    }

    private static JobState withoutCostFits(final JobState state) {
        final TreeMap<String, JobState.Worker> workers = new TreeMap<>();
        state.workers()
                .forEach((name, w) -> workers.put(
                        name,
                        new JobState.Worker(
                                w.window(),
                                w.lastClock(),
                                w.threads(),
                                w.share(),
                                w.appliedPlanVersion(),
                                w.plannedShare(),
                                w.plannedThreads(),
                                w.straggler(),
                                w.speed(),
                                CostFit.NONE)));
        return new JobState(
                workers, state.planVersion(), state.lastPlanRound(), state.lastEvaluatedRound(), state.gainStreak());
    }

    /** The orchestrator's job state writer before {@code OrchestratorJobState}, field for field. */
    private static final class OldWriter {

        static byte[] write(final JobState state) {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeByte(1);
                out.writeLong(state.planVersion());
                out.writeLong(state.lastPlanRound());
                out.writeLong(state.lastEvaluatedRound());
                out.writeInt(state.gainStreak());
                out.writeInt(state.workers().size());
                for (final var entry : state.workers().entrySet()) {
                    final JobState.Worker w = entry.getValue();
                    out.writeUTF(entry.getKey());
                    out.writeLong(w.lastClock());
                    out.writeInt(w.threads());
                    out.writeDouble(w.share());
                    out.writeLong(w.appliedPlanVersion());
                    out.writeDouble(w.plannedShare());
                    out.writeInt(w.plannedThreads());
                    out.writeBoolean(w.straggler());
                    out.writeDouble(w.speed());
                    out.writeInt(w.window().size());
                    for (final JobState.Iteration it : w.window()) {
                        out.writeLong(it.clock());
                        out.writeInt(it.samples());
                        out.writeDouble(it.computeMs());
                    }
                }
            } catch (final IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.toByteArray();
        }
    }
}
