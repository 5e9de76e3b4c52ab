package io.paramhub.topology.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class JobStateTest {

    @Test
    void shouldKeepOnlyLastWindowWhenComputingSpeed() {
        // given
        final JobState state = new JobState();
        final JobState.Worker worker = state.worker("worker-000");

        // when
        worker.record(0, 100, 1000, 2);
        worker.record(1, 100, 100, 2);
        worker.record(2, 300, 100, 2);

        // then 400 samples in 0.2 compute-seconds
        assertThat(worker.speed()).isCloseTo(2000, within(1e-9));
        assertThat(worker.windowSize()).isEqualTo(2);
    }

    @Test
    void shouldRoundTripWhenSerialized() {
        // given
        final JobState state = new JobState();
        state.planVersion = 3;
        state.lastPlanRound = 12;
        state.lastEvaluatedRound = 14;
        state.gainStreak = 2;
        final JobState.Worker worker = state.worker("worker-001");
        worker.record(13, 64, 80, 3);
        worker.record(14, 64, 90, 3);
        worker.threads = 2;
        worker.share = 0.3;
        worker.plannedShare = 0.35;
        worker.plannedThreads = 3;
        worker.straggler = true;
        worker.appliedPlanVersion = 2;

        // when
        final byte[] bytes = JobState.serde().serializer().serialize("t", state);
        final JobState copy = JobState.serde().deserializer().deserialize("t", bytes);

        // then
        assertThat(JobState.serde().serializer().serialize("t", copy)).isEqualTo(bytes);
        assertThat(copy.planVersion()).isEqualTo(3);
        final JobState.Worker restored = copy.workers().get("worker-001");
        assertThat(restored.speed()).isEqualTo(worker.speed());
        assertThat(restored.noise()).isEqualTo(worker.noise());
        assertThat(restored.plannedShare()).isEqualTo(0.35);
        assertThat(restored.straggler()).isTrue();
    }
}
