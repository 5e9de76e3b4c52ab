package io.paramhub.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Tests when a clock of a host's sum is complete: every member still in it has handed in its part. */
class HostSumTest {

    private static HostSum.Part part(final long clock, final int worker) {
        return new HostSum.Part(
                clock, worker, "worker-00" + worker, new float[] {worker}, 1, 0.5, new long[] {clock}, null);
    }

    private static List<Integer> workersOf(final List<HostSum.Part> parts) {
        return parts.stream().map(HostSum.Part::worker).toList();
    }

    @Test
    void shouldCompleteAClockWithTheLastMembersPartInTheOrderOfTheirIndexes() {
        // given: three members, one of which has not joined yet
        final HostSum sum = new HostSum(List.of(0, 1, 2));
        sum.join(1, 0);
        sum.join(2, 0);

        // when: the parts come in out of order
        final List<HostSum.Part> afterTwo = sum.add(part(0, 2));
        final List<HostSum.Part> afterThree = sum.add(part(0, 1));
        final List<HostSum.Part> complete = sum.add(part(0, 0));

        // then: a member that has not joined is still waited for
        assertThat(afterTwo).isEmpty();
        assertThat(afterThree).isEmpty();
        assertThat(workersOf(complete)).containsExactly(0, 1, 2);
        assertThat(sum.add(part(1, 0))).isEmpty();
    }

    @Test
    void shouldCompleteTheClocksALeavingMemberHeldBack() {
        // given: clocks 4 and 5 wait for worker 1
        final HostSum sum = new HostSum(List.of(0, 1, 2));
        List.of(0, 1, 2).forEach(worker -> sum.join(worker, 4));
        sum.add(part(4, 0));
        sum.add(part(4, 2));
        sum.add(part(5, 2));

        // when
        final List<List<HostSum.Part>> completed = sum.leave(1);

        // then: clock 4 is complete; clock 5 still waits for worker 0
        assertThat(completed)
                .singleElement()
                .satisfies(parts -> assertThat(workersOf(parts)).containsExactly(0, 2));
        assertThat(workersOf(sum.add(part(5, 0)))).containsExactly(0, 2);
        assertThat(sum.join(1, 6))
                .as("a member that left sends its own gradients")
                .isFalse();
        assertThat(sum.join(3, 6)).as("not a member").isFalse();
    }

    @Test
    void shouldNotWaitForAMemberAtAClockBeforeItJoined() {
        // given: worker 1 joins at clock 3, as a restarted worker would
        final HostSum sum = new HostSum(List.of(0, 1));
        sum.join(0, 0);
        sum.join(1, 3);

        // when / then
        assertThat(workersOf(sum.add(part(2, 0)))).containsExactly(0);
        assertThat(sum.add(part(3, 0))).isEmpty();
        assertThat(workersOf(sum.add(part(3, 1)))).containsExactly(0, 1);
    }
}
