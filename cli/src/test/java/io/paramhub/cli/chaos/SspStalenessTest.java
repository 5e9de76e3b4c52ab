package io.paramhub.cli.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.cli.chaos.SspStaleness.Finding;
import io.paramhub.cli.chaos.SspStaleness.Gradient;
import io.paramhub.cli.chaos.SspStaleness.Version;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SspStalenessTest {

    private static final long VERSION_BOUND = 2;
    private static final long STALENESS = 1;

    /** Shard 0 of a two-worker SSP job: w0 clocks 0 and 1, w1 clock 0, applied as versions 1..3. */
    private static final List<Version> COMMITTED = List.of(
            new Version(0, 0, 0, Map.of()),
            new Version(0, 1, 0, Map.of("w0", 1L)),
            new Version(0, 2, 1, Map.of("w0", 1L, "w1", 1L)),
            new Version(0, 3, 1, Map.of("w0", 2L, "w1", 1L)));

    private static Gradient gradient(final String worker, final long clock, final long base, final long offset) {
        return new Gradient(0, worker, clock, base, 0, offset);
    }

    @Test
    void shouldHoldWhenEveryAppliedGradientIsWithinBothBounds() {
        // given: w0's clock 1 computed on version 1 (minClock 0: 1 clock ahead) and applied to version 2
        final List<Gradient> gradients =
                List.of(gradient("w0", 0, 0, 0), gradient("w1", 0, 0, 1), gradient("w0", 1, 1, 2));

        // when
        final Finding finding = SspStaleness.judge(gradients, Map.of(), COMMITTED, COMMITTED, VERSION_BOUND, STALENESS);

        // then
        assertThat(finding.problems()).isEmpty();
        assertThat(finding.applied()).isEqualTo(3);
        assertThat(finding.maxLag()).isEqualTo(1);
        assertThat(finding.maxAhead()).isEqualTo(1);
    }

    @Test
    void shouldFailWhenAnAppliedGradientLagsMoreVersionsThanTheBound() {
        // given: w0's clock 1 applied to version 2 although computed on version 0 with a bound of 1
        final List<Gradient> gradients =
                List.of(gradient("w0", 0, 0, 0), gradient("w1", 0, 0, 1), gradient("w0", 1, 0, 2));

        // when
        final Finding finding = SspStaleness.judge(gradients, Map.of(), COMMITTED, COMMITTED, 1, STALENESS);

        // then
        assertThat(finding.problems())
                .singleElement()
                .asString()
                .contains("w0 clock 1 shard 0", "computed on version 0, applied to 2, 2 behind, bound 1");
    }

    @Test
    void shouldFailWhenAWorkerStartedAClockFurtherPastMinClockThanTheStaleness() {
        // given: w0's clock 1 on version 0, whose minClock 0 lets it start clock 0 only under staleness 0
        final List<Gradient> gradients =
                List.of(gradient("w0", 0, 0, 0), gradient("w1", 0, 0, 1), gradient("w0", 1, 0, 2));

        // when
        final Finding finding = SspStaleness.judge(gradients, Map.of(), COMMITTED, COMMITTED, VERSION_BOUND, 0);

        // then
        assertThat(finding.problems())
                .singleElement()
                .asString()
                .contains("started on version 0 whose minClock is 0, more than 0 clocks behind");
    }

    @Test
    void shouldCountAStaleLetterAsRefusedAndNotAsAppliedWhenTheAggregatorDeadLetteredIt() {
        // given: a fourth gradient, too stale, dead-lettered instead of applied
        final List<Gradient> gradients = List.of(
                gradient("w0", 0, 0, 0), gradient("w1", 0, 0, 1), gradient("w0", 1, 1, 2), gradient("w1", 1, 0, 3));

        // when
        final Finding finding = SspStaleness.judge(
                gradients, Map.of("0@3", DeadLetterReason.STALE), COMMITTED, COMMITTED, VERSION_BOUND, STALENESS);

        // then
        assertThat(finding.problems()).isEmpty();
        assertThat(finding.applied()).isEqualTo(3);
        assertThat(finding.stale()).isEqualTo(1);
    }

    @Test
    void shouldFailWhenAGradientIsNeitherInAVersionNorDeadLettered() {
        // given: w1's clock 1 in no version's clocks and no letter
        final List<Gradient> gradients = List.of(
                gradient("w0", 0, 0, 0), gradient("w1", 0, 0, 1), gradient("w0", 1, 1, 2), gradient("w1", 1, 2, 3));

        // when
        final Finding finding = SspStaleness.judge(gradients, Map.of(), COMMITTED, COMMITTED, VERSION_BOUND, STALENESS);

        // then
        assertThat(finding.problems()).singleElement().asString().contains("w1 clock 1", "in no committed version");
    }
}
