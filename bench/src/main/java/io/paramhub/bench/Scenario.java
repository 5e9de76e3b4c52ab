package io.paramhub.bench;

import io.paramhub.worker.ComputeEmulation;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The bench's named heterogeneity scenarios, as one {@link ComputeEmulation} per worker. Every worker
 * pays the same emulated cost a sample; the straggler of the static and late scenarios is the last worker.
 */
public enum Scenario {

    /** Every worker at the base cost. */
    HOMOGENEOUS("homogeneous", "every worker at the base cost"),
    /** The last worker 3x slower from clock 0. */
    STRAGGLER_3X("straggler-3x", "the last worker 3x slower from the start"),
    /** The last worker 5x slower from clock 0. */
    STRAGGLER_5X("straggler-5x", "the last worker 5x slower from the start"),
    /** The last worker 3x slower from clock {@value #LATE_CLOCK}. */
    LATE_STRAGGLER("late-straggler", "the last worker 3x slower from clock " + Scenario.LATE_CLOCK),
    /** Each worker's slowdown redrawn uniformly from [1, 4] every {@value #INTERFERENCE_PERIOD} clocks. */
    INTERFERENCE(
            "interference",
            "each worker's slowdown redrawn uniformly from [1, 4] every " + Scenario.INTERFERENCE_PERIOD
                    + " clocks (seeded)");

    static final long LATE_CLOCK = 50;
    static final long INTERFERENCE_PERIOD = 20;
    static final double INTERFERENCE_MAX = 4.0;

    private final String label;
    private final String description;

    Scenario(final String label, final String description) {
        this.label = label;
        this.description = description;
    }

    public String label() {
        return label;
    }

    public String description() {
        return description;
    }

    /** The scenario called {@code name}. */
    public static Scenario parse(final String name) {
        for (final Scenario scenario : values()) {
            if (scenario.label.equals(name.trim().toLowerCase(Locale.ROOT))) {
                return scenario;
            }
        }
        throw new IllegalArgumentException("--scenario must be one of " + names() + ", not " + name);
    }

    static String names() {
        return Arrays.stream(values()).map(Scenario::label).collect(Collectors.joining(", "));
    }

    /**
     * Each worker's emulation: {@code sampleCostMicros} a sample, slowed as the scenario says; the
     * interference schedule covers {@code clocks} clocks and is drawn from {@code seed}.
     */
    public Map<Integer, ComputeEmulation> emulations(
            final int workers, final long sampleCostMicros, final long clocks, final long seed) {
        final Map<Integer, ComputeEmulation> byWorker = new HashMap<>();
        final SplittableRandom random = new SplittableRandom(seed);
        for (int index = 0; index < workers; index++) {
            final boolean last = index == workers - 1;
            final ComputeEmulation emulation = switch (this) {
                case HOMOGENEOUS -> new ComputeEmulation(1.0, 0, sampleCostMicros);
                case STRAGGLER_3X -> new ComputeEmulation(last ? 3.0 : 1.0, 0, sampleCostMicros);
                case STRAGGLER_5X -> new ComputeEmulation(last ? 5.0 : 1.0, 0, sampleCostMicros);
                case LATE_STRAGGLER -> new ComputeEmulation(last ? 3.0 : 1.0, last ? LATE_CLOCK : 0, sampleCostMicros);
                case INTERFERENCE -> ComputeEmulation.scheduled(sampleCostMicros, interference(random, clocks));
            };
            byWorker.put(index, emulation);
        }
        return byWorker;
    }

    private static Map<Long, Double> interference(final SplittableRandom random, final long clocks) {
        final Map<Long, Double> steps = new TreeMap<>();
        for (long from = 0; from < Math.max(1, clocks); from += INTERFERENCE_PERIOD) {
            steps.put(from, 1.0 + random.nextDouble() * (INTERFERENCE_MAX - 1.0));
        }
        return steps;
    }
}
