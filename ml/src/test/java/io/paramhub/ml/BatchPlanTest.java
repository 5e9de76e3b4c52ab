package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Tests which samples each iteration and each worker get. */
class BatchPlanTest {

    @Test
    void shouldPartitionBatchWhenSplittingAmongWorkers() {
        // given
        final int[] batch = new BatchPlan(1000, 37, 1).batch(5);
        for (int workers = 1; workers <= 40; workers++) {
            final List<Integer> union = new ArrayList<>();

            // when
            for (int w = 0; w < workers; w++) {
                final int[] share = BatchPlan.roundRobinShare(batch, w, workers);
                assertThat(share.length).isBetween(37 / workers, 37 / workers + 1);
                Arrays.stream(share).forEach(union::add);
            }

            // then
            assertThat(union)
                    .as("%d workers", workers)
                    .containsExactlyInAnyOrderElementsOf(
                            Arrays.stream(batch).boxed().toList());
        }
    }

    @Test
    void shouldTakeEveryWorkersthElementWhenRoundRobin() {
        // when / then
        assertThat(BatchPlan.roundRobinShare(new int[] {10, 11, 12, 13, 14}, 1, 2))
                .containsExactly(11, 13);
        assertThat(BatchPlan.roundRobinShare(new int[] {10, 11, 12, 13, 14}, 0, 2))
                .containsExactly(10, 12, 14);
        assertThat(BatchPlan.roundRobinShare(new int[] {10, 11}, 3, 4)).isEmpty();
    }

    @Test
    void shouldVisitEachIndexAtMostOnceWhenWithinAnEpoch() {
        // given
        final BatchPlan plan = new BatchPlan(103, 10, 42);
        final int ipe = plan.iterationsPerEpoch();

        for (int epoch = 0; epoch < 3; epoch++) {
            final Set<Integer> seen = new HashSet<>();

            // when
            for (int i = 0; i < ipe; i++) {
                final long clock = (long) epoch * ipe + i;
                assertThat(plan.epochOf(clock)).isEqualTo(epoch);
                for (final int index : plan.batch(clock)) {
                    assertThat(index).isBetween(0, 102);
                    seen.add(index);
                }
            }

            // then
            assertThat(ipe).isEqualTo(10);
            assertThat(seen).as("epoch %d", epoch).hasSize(ipe * 10);
        }
    }

    @Test
    void shouldRepeatBatchesWhenSeedIsTheSame() {
        // given
        final BatchPlan first = new BatchPlan(500, 64, 7);
        final BatchPlan second = new BatchPlan(500, 64, 7);

        // when / then: also going back to an epoch after the cache moved on
        for (final long clock : new long[] {0, 3, 7, 8, 20, 2, 0}) {
            assertThat(first.batch(clock)).as("clock %d", clock).containsExactly(second.batch(clock));
        }
        assertThat(first.batch(0)).isNotEqualTo(new BatchPlan(500, 64, 8).batch(0));
    }

    @Test
    void shouldShuffleDifferentlyWhenEpochDiffers() {
        // given
        final BatchPlan plan = new BatchPlan(500, 500, 7);

        // when
        final int[] epoch0 = plan.batch(0);
        final int[] epoch1 = plan.batch(1);

        // then
        assertThat(epoch0).isNotEqualTo(epoch1);
        assertThat(epoch0).containsExactlyInAnyOrder(epoch1);
    }

    @Test
    void shouldFollowSpecifiedShuffleWhenDrawingPermutations() {
        // given: Fisher-Yates from the last position down, j = high 64 bits of (SplitMix64 draw x (i + 1)),
        // seeded with seed + 0x9E3779B97F4A7C15 * (epoch + 1); values pinned from a Python reference of
        // docs/protocol.md (clients/python's tests check the same vectors)
        final BatchPlan plan = new BatchPlan(10, 5, 42);

        // when / then
        assertThat(plan.batch(0)).containsExactly(6, 7, 4, 3, 9);
        assertThat(plan.batch(1)).containsExactly(5, 0, 8, 2, 1);
        assertThat(plan.batch(2)).containsExactly(9, 7, 8, 5, 4);
        assertThat(plan.batch(3)).containsExactly(1, 6, 0, 3, 2);
    }

    @Test
    void shouldAgreeWithSingleThreadWhenCalledConcurrently() throws Exception {
        // given
        final BatchPlan plan = new BatchPlan(2000, 100, 3);
        final BatchPlan reference = new BatchPlan(2000, 100, 3);
        final ExecutorService pool = Executors.newFixedThreadPool(4);
        final List<Future<int[]>> results = new ArrayList<>();

        // when
        try {
            for (int clock = 0; clock < 200; clock++) {
                final long c = (clock * 37L) % 200;
                results.add(pool.submit(() -> plan.batch(c)));
            }
            // then
            for (int clock = 0; clock < 200; clock++) {
                assertThat(results.get(clock).get()).containsExactly(reference.batch((clock * 37L) % 200));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldRejectPlanWhenBatchDoesNotFit() {
        // when / then
        assertThatThrownBy(() -> new BatchPlan(10, 11, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BatchPlan(10, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BatchPlan(10, 5, 1).batch(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldCutContiguousChunksSizedByShareThatPartitionTheBatch() {
        // given
        final int[] batch = IntStream.range(100, 228).toArray();
        final double[] shares = {0.4, 0.4, 0.2};

        // when
        final int[] first = BatchPlan.contiguousShare(batch, shares, 0);
        final int[] second = BatchPlan.contiguousShare(batch, shares, 1);
        final int[] third = BatchPlan.contiguousShare(batch, shares, 2);

        // then
        assertThat(first).hasSize(51).startsWith(100);
        assertThat(second).hasSize(51).startsWith(151);
        assertThat(third).hasSize(26).startsWith(202).endsWith(227);
        final int[] joined = IntStream.concat(
                        IntStream.concat(Arrays.stream(first), Arrays.stream(second)), Arrays.stream(third))
                .toArray();
        assertThat(joined).containsExactly(batch);
    }
}
