package io.paramhub.topology.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PlacementPlannerTest {

    private static final Map<String, Double> ONE_SLOW_3X = Map.of("a", 10.0, "b", 30.0);

    @Test
    void shouldGiveTheSlowInstanceAsManyShardsAsKeepItsFinishTimeLowestWhenItIs3xSlower() {
        // given 8 partitions, 4 on each instance
        final Map<Integer, String> current = evenly(8, "a", "b");

        // when
        final PlacementPlanner.Plan plan = PlacementPlanner.place(partitions(8), ONE_SLOW_3X, current, 0.2);

        // then 6 on the fast one, 2 on the slow one: 60 ms either way, against 120 ms before
        assertThat(held(plan, "a")).isEqualTo(6);
        assertThat(held(plan, "b")).isEqualTo(2);
        assertThat(plan.currentRoundMs()).isCloseTo(120.0, within(1e-9));
        assertThat(plan.predictedRoundMs()).isCloseTo(60.0, within(1e-9));
        assertThat(plan.gain()).isCloseTo(0.5, within(1e-9));
        assertThat(plan.slow()).containsExactly("b");
        assertThat(plan.moves()).isEqualTo(2);
    }

    @Test
    void shouldMoveOnlyThePartitionsTheNewCountsRequire() {
        // given
        final Map<Integer, String> current = evenly(8, "a", "b");

        // when
        final PlacementPlanner.Plan plan = PlacementPlanner.place(partitions(8), ONE_SLOW_3X, current, 0.2);

        // then partitions of the fast instance stay there, and two of the slow one's stay too
        current.forEach((partition, owner) -> {
            if (owner.equals("a")) {
                assertThat(plan.owners().get(partition)).isEqualTo("a");
            }
        });
        final long stayed = current.entrySet().stream()
                .filter(entry -> entry.getValue().equals("b"))
                .filter(entry -> plan.owners().get(entry.getKey()).equals("b"))
                .count();
        assertThat(stayed).isEqualTo(2);
    }

    @Test
    void shouldMoveNothingWhenInstancesAreEquallyFast() {
        // given
        final Map<String, Double> even = Map.of("a", 10.0, "b", 10.5);

        // when
        final PlacementPlanner.Plan plan = PlacementPlanner.place(partitions(8), even, evenly(8, "a", "b"), 0.2);

        // then
        assertThat(plan.moves()).isZero();
        assertThat(plan.slow()).isEmpty();
        assertThat(plan.gain()).isCloseTo(0.0, within(1e-9));
    }

    @Test
    void shouldLeaveAnInstanceTooSlowToHelpEmpty() {
        // given the slow instance is 10x slower: even one shard there would be the round's longest
        final Map<String, Double> ms = Map.of("a", 10.0, "b", 100.0);

        // when
        final PlacementPlanner.Plan plan = PlacementPlanner.place(partitions(4), ms, evenly(4, "a", "b"), 0.2);

        // then
        assertThat(held(plan, "b")).isZero();
        assertThat(plan.predictedRoundMs()).isCloseTo(40.0, within(1e-9));
    }

    @Test
    void shouldWeighAPartitionByTheShardsItHolds() {
        // given partition 0 holds 3 shards, 1 and 2 one each; all on the slow instance
        final SortedMap<Integer, Double> weights = new TreeMap<>(Map.of(0, 3.0, 1, 1.0, 2, 1.0));
        final Map<Integer, String> current = Map.of(0, "b", 1, "b", 2, "b");

        // when
        final PlacementPlanner.Plan plan = PlacementPlanner.place(weights, ONE_SLOW_3X, current, 0.2);

        // then the heavy partition goes to the fast instance with one light one (40 ms), the other light one
        // stays (30 ms): against 150 ms with all five shards on the slow instance
        assertThat(plan.owners().get(0)).isEqualTo("a");
        assertThat(plan.currentRoundMs()).isCloseTo(150.0, within(1e-9));
        assertThat(plan.predictedRoundMs()).isCloseTo(40.0, within(1e-9));
        assertThat(plan.moves()).isEqualTo(2);
    }

    @Test
    void shouldFindTheBestSplitWhereHeaviestFirstMissesIt() {
        // given weights 3, 3, 2, 2, 2 on two equal instances: heaviest first gives 3+2+2 against 3+2 (7 units)
        final SortedMap<Integer, Double> weights = new TreeMap<>(Map.of(0, 3.0, 1, 3.0, 2, 2.0, 3, 2.0, 4, 2.0));
        final Map<String, Double> even = Map.of("a", 10.0, "b", 10.0);

        // when
        final PlacementPlanner.Plan plan =
                PlacementPlanner.place(weights, even, Map.of(0, "a", 1, "a", 2, "a", 3, "a", 4, "a"), 0.2);

        // then the two heavy partitions together, the three light ones together: 60 ms
        assertThat(plan.predictedRoundMs()).isCloseTo(60.0, within(1e-9));
        assertThat(plan.owners().get(0)).isEqualTo(plan.owners().get(1));
        assertThat(plan.moves()).isEqualTo(2);
    }

    @Test
    void shouldReachTheBruteForceBestRoundOnMeasuredWeights() {
        final Random random = new Random(31);
        for (int trial = 0; trial < 200; trial++) {
            // given random measured costs on 2 or 3 instances of random speeds
            final int instances = 2 + random.nextInt(2);
            final Map<String, Double> ms = new TreeMap<>();
            for (int i = 0; i < instances; i++) {
                ms.put("i" + i, 5 + 40 * random.nextDouble());
            }
            final SortedMap<Integer, Double> weights = new TreeMap<>();
            final Map<Integer, String> current = new HashMap<>();
            final int partitions = 1 + random.nextInt(8);
            for (int partition = 0; partition < partitions; partition++) {
                weights.put(partition, 0.2 + 3 * random.nextDouble());
                current.put(partition, "i" + random.nextInt(instances));
            }

            // when
            final PlacementPlanner.Plan plan = PlacementPlanner.place(weights, ms, current, 0.2);

            // then within the tolerance of the best placement there is, and never worse than staying
            final double best = bruteForceRoundMs(weights, ms);
            assertThat(plan.predictedRoundMs())
                    .as("trial %d: %s on %s", trial, weights, ms)
                    .isBetween(best - 1e-9, best * (1 + PlacementPlanner.EQUAL_WITHIN) + 1e-9);
            assertThat(plan.predictedRoundMs()).isLessThanOrEqualTo(plan.currentRoundMs() + 1e-9);
        }
    }

    @Test
    void shouldMoveNothingForADifferenceWithinTheTolerance() {
        // given measured costs that differ by noise, two partitions on each of two equal instances
        final SortedMap<Integer, Double> weights = new TreeMap<>(Map.of(0, 1.01, 1, 0.99, 2, 1.0, 3, 1.02));
        final Map<Integer, String> current = Map.of(0, "a", 1, "a", 2, "b", 3, "b");

        // when
        final PlacementPlanner.Plan plan = PlacementPlanner.place(weights, Map.of("a", 10.0, "b", 10.0), current, 0.2);

        // then
        assertThat(plan.moves()).isZero();
        assertThat(plan.owners()).isEqualTo(new TreeMap<>(current));
    }

    @Test
    void shouldWeighAPartitionOfAHeavyShardByItsMeasuredCost() {
        // given partition 0's shard costs 2.5 typical shard-rounds; 1 to 4 one each; the slow instance is 4x slower
        final SortedMap<Integer, Double> weights = new TreeMap<>(Map.of(0, 2.5, 1, 1.0, 2, 1.0, 3, 1.0, 4, 1.0));
        final Map<String, Double> ms = Map.of("fast", 10.0, "slow", 40.0);
        final Map<Integer, String> current = Map.of(0, "slow", 1, "slow", 2, "fast", 3, "fast", 4, "fast");

        // when
        final PlacementPlanner.Plan plan = PlacementPlanner.place(weights, ms, current, 0.2);

        // then the heavy partition leaves the slow instance, which keeps one light one: 55 ms on the fast
        // instance and 40 on the slow one, against the 140 ms of 3.5 units on the slow one now
        assertThat(plan.owners().get(0)).isEqualTo("fast");
        assertThat(plan.owners().get(1)).isEqualTo("slow");
        assertThat(plan.currentRoundMs()).isCloseTo(140.0, within(1e-9));
        assertThat(plan.predictedRoundMs()).isCloseTo(55.0, within(1e-9));
        assertThat(plan.moves()).isEqualTo(1);
    }

    @Test
    void shouldFindTheOptimalCountsByBruteForceOnSmallCases() {
        final double[][] speeds = {{10, 30}, {10, 40}, {7, 11, 23}, {5, 5, 50}, {12, 13, 14, 15}};
        for (final double[] msValues : speeds) {
            final Map<String, Double> ms = new HashMap<>();
            for (int i = 0; i < msValues.length; i++) {
                ms.put("i" + i, msValues[i]);
            }
            for (int partitions = 1; partitions <= 9; partitions++) {
                // when
                final double greedy = PlacementPlanner.optimalRoundMs(partitions, ms);

                // then
                assertThat(greedy)
                        .as("%s, %d partitions", ms, partitions)
                        .isCloseTo(bruteForce(partitions, msValues), within(1e-9));
            }
        }
    }

    @Test
    void shouldFlagAnInstanceAboveTheMedianByMoreThanTheThreshold() {
        // when
        final SortedSet<String> slow = PlacementPlanner.slow(Map.of("a", 10.0, "b", 11.0, "c", 10.5, "d", 13.0), 0.2);

        // then 13 > 1.2 x 10.75; 11 is not
        assertThat(slow).containsExactly("d");
    }

    @Test
    void shouldRecommendOneMoreInstanceWhenItShortensTheRoundEnough() {
        // when 8 partitions on 2 equal instances: a third takes the round from 40 to 30 ms
        final PlacementPlanner.Scaling scaling = PlacementPlanner.scaling(8, Map.of("a", 10.0, "b", 10.0), 0.2, 0.05);

        // then
        assertThat(scaling.instances()).isEqualTo(3);
        assertThat(scaling.gain()).isCloseTo(0.25, within(1e-9));
    }

    @Test
    void shouldRecommendOneFewerWhenTheSlowestAddsNothing() {
        // when the slow instance is too slow to hold a shard anyway
        final PlacementPlanner.Scaling scaling = PlacementPlanner.scaling(2, Map.of("a", 10.0, "b", 100.0), 0.2, 0.05);

        // then
        assertThat(scaling.instances()).isEqualTo(1);
        assertThat(scaling.gain()).isCloseTo(0.0, within(1e-9));
    }

    @Test
    void shouldKeepTheCountWhenNeitherWayPays() {
        // when 2 partitions on 2 equal instances: a third has nothing to hold, one fewer doubles the round
        final PlacementPlanner.Scaling scaling = PlacementPlanner.scaling(2, Map.of("a", 10.0, "b", 10.0), 0.2, 0.05);

        // then
        assertThat(scaling.instances()).isEqualTo(2);
    }

    private static double bruteForceRoundMs(final SortedMap<Integer, Double> weights, final Map<String, Double> ms) {
        final List<Double> costs = new ArrayList<>(weights.values());
        final List<Double> speeds = new ArrayList<>(ms.values());
        double best = Double.POSITIVE_INFINITY;
        final int combinations = (int) Math.pow(speeds.size(), costs.size());
        for (int code = 0; code < combinations; code++) {
            final double[] load = new double[speeds.size()];
            int rest = code;
            for (final double cost : costs) {
                load[rest % speeds.size()] += cost;
                rest /= speeds.size();
            }
            double worst = 0;
            for (int i = 0; i < load.length; i++) {
                worst = Math.max(worst, load[i] * speeds.get(i));
            }
            best = Math.min(best, worst);
        }
        return best;
    }

    private static double bruteForce(final int partitions, final double[] ms) {
        return bruteForce(partitions, ms, 0, 0.0);
    }

    private static double bruteForce(final int left, final double[] ms, final int index, final double worst) {
        if (index == ms.length - 1) {
            return Math.max(worst, left * ms[index]);
        }
        double best = Double.POSITIVE_INFINITY;
        for (int here = 0; here <= left; here++) {
            best = Math.min(best, bruteForce(left - here, ms, index + 1, Math.max(worst, here * ms[index])));
        }
        return best;
    }

    private static SortedSet<Integer> partitions(final int count) {
        return IntStream.range(0, count).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    private static Map<Integer, String> evenly(final int count, final String first, final String second) {
        final Map<Integer, String> owners = new HashMap<>();
        for (int partition = 0; partition < count; partition++) {
            owners.put(partition, partition % 2 == 0 ? first : second);
        }
        return owners;
    }

    private static long held(final PlacementPlanner.Plan plan, final String instance) {
        return plan.owners().values().stream().filter(instance::equals).count();
    }
}
