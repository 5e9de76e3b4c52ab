package io.paramhub.embedded.online;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.OnlineClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OnlineTallyTest {

    @Test
    void shouldCloseAWindowWithTheClockThatFillsItAndTheLastPartialOneAtTheEnd() {
        // given: windows of 100 examples, clocks of 60 examples
        final List<OnlineTally.Window> told = new ArrayList<>();
        final OnlineTally tally = new OnlineTally(100, told::add);

        // when: 3 clocks, 30 + 45 + 54 correct of 60 each, loss 60 per clock
        tally.onIteration(clock(60, 30, List.of(100, 300)));
        tally.onIteration(clock(60, 45, List.of(200)));
        tally.onIteration(clock(60, 54, List.of()));
        final OnlineTally.Summary summary = tally.summary();

        // then: a window of 120 examples (75 right), then the partial one of 60 (54 right)
        assertThat(told).hasSize(2);
        assertThat(told.get(0).examples()).isEqualTo(120);
        assertThat(told.get(0).accuracy()).isCloseTo(75 / 120.0, within(1e-12));
        assertThat(told.get(0).loss()).isCloseTo(1.0, within(1e-12));
        assertThat(told.get(0).freshnessP99Ms()).isEqualTo(300);
        assertThat(told.get(1).examples()).isEqualTo(60);
        assertThat(told.get(1).freshnessP99Ms()).isNaN();
        assertThat(told.get(1).accuracy()).isCloseTo(0.9, within(1e-12));
        assertThat(summary.windows()).isEqualTo(told);
        assertThat(summary.examples()).isEqualTo(180);
        assertThat(summary.freshnessP50Ms()).isEqualTo(200);
        assertThat(summary.freshnessP99Ms()).isEqualTo(300);
        assertThat(summary.maxLag()).isEqualTo(7);
    }

    @Test
    void shouldIgnoreTelemetryOfAJobThatReadsNoTopic() {
        final OnlineTally tally = new OnlineTally(10, window -> {});

        tally.onIteration(telemetry(null));

        assertThat(tally.summary().examples()).isZero();
        assertThat(tally.summary().last()).isNull();
    }

    private static IterationTelemetry clock(final int examples, final int correct, final List<Integer> freshness) {
        return telemetry(OnlineClock.newBuilder()
                .setExamples(examples)
                .setDeadLetters(0)
                .setCorrect(correct)
                .setPredictionLoss(examples)
                .setLag(7)
                .setFreshnessMs(freshness)
                .build());
    }

    private static IterationTelemetry telemetry(final OnlineClock online) {
        return IterationTelemetry.newBuilder()
                .setJob("j")
                .setWorker("worker-000")
                .setClock(0)
                .setSamples(online == null ? 0 : online.getExamples())
                .setComputeMs(1)
                .setWaitMs(1)
                .setThreads(1)
                .setBatchShare(1)
                .setTimestamp(Instant.now())
                .setOnline(online)
                .build();
    }
}
