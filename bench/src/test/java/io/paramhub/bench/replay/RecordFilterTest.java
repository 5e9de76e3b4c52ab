package io.paramhub.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.GradientShard;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RecordFilterTest {

    @Test
    void shouldKeepTheJobAndTheMembershipAndGradientsOfTheFirstClocksWhenFeedingAnAggregator() {
        // given
        final RecordFilter filter = RecordFilter.aggregatorFeed(3);

        // then: the topics an aggregator replay reads, and no other
        assertThat(filter.reads(RecordedTopic.JOBS)).isTrue();
        assertThat(filter.reads(RecordedTopic.MEMBERSHIP)).isTrue();
        assertThat(filter.reads(RecordedTopic.GRADIENTS)).isTrue();
        assertThat(filter.reads(RecordedTopic.MODEL)).isFalse();
        assertThat(filter.reads(RecordedTopic.TELEMETRY)).isFalse();
        assertThat(filter.reads(RecordedTopic.COMMANDS)).isFalse();
        // and gradients and membership of clocks 0..2, not of clock 3 (a worker leaving after them)
        assertThat(filter.keeps(RecordedTopic.GRADIENTS, gradient(2))).isTrue();
        assertThat(filter.keeps(RecordedTopic.GRADIENTS, gradient(3))).isFalse();
        assertThat(filter.keeps(RecordedTopic.MEMBERSHIP, status(WorkerState.JOINED, 0)))
                .isTrue();
        assertThat(filter.keeps(RecordedTopic.MEMBERSHIP, status(WorkerState.HEARTBEAT, 2)))
                .isTrue();
        assertThat(filter.keeps(RecordedTopic.MEMBERSHIP, status(WorkerState.LEFT, 3)))
                .isFalse();
    }

    @Test
    void shouldKeepEverythingWhenRecordingAWholeJob() {
        assertThat(RecordFilter.ALL.reads(RecordedTopic.MODEL)).isTrue();
        assertThat(RecordFilter.ALL.keeps(RecordedTopic.GRADIENTS, gradient(1_000)))
                .isTrue();
    }

    @Test
    void shouldRefuseAReplayOfNoClock() {
        assertThatThrownBy(() -> RecordFilter.aggregatorFeed(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(">= 1 clock");
    }

    private static GradientShard gradient(final long clock) {
        return GradientShard.newBuilder()
                .setJob("j")
                .setShard(0)
                .setWorker("worker-000")
                .setClock(clock)
                .setBaseVersion(clock)
                .setSampleCount(32)
                .setLoss(1.0)
                .setValues(ByteBuffer.allocate(8))
                .build();
    }

    private static WorkerStatus status(final WorkerState state, final long clock) {
        return WorkerStatus.newBuilder()
                .setJob("j")
                .setWorker("worker-000")
                .setState(state)
                .setClock(clock)
                .setTimestamp(Instant.EPOCH)
                .build();
    }
}
