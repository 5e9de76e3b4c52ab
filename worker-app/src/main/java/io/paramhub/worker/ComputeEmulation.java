package io.paramhub.worker;

import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Emulated heterogeneity for tests and benchmarks, so that several workers on a small machine measure
 * the protocol and not CPU contention: each sample costs at least {@code sampleCostMicros} of compute
 * (the real gradient is still computed, the rest is padded by sleeping), and from clock
 * {@code slowdownFromClock} on the worker is {@code slowdown} times slower. A {@code schedule} of
 * steps (from clock, factor), when not empty, replaces that single step: at clock c the worker is as
 * slow as the factor of the last step at or before c (1 before the first), which is how the bench's
 * interference scenario redraws each worker's slowdown every few clocks; {@code slowdown} is then the
 * largest factor of the schedule and {@code slowdownFromClock} its first step, for reports.
 */
public record ComputeEmulation(
        double slowdown, long slowdownFromClock, long sampleCostMicros, NavigableMap<Long, Double> schedule) {

    public static final ComputeEmulation NONE = new ComputeEmulation(1.0, 0, 0);

    public ComputeEmulation {
        if (!(slowdown >= 1.0)) {
            throw new IllegalArgumentException("slowdown must be >= 1, not " + slowdown);
        }
        if (slowdownFromClock < 0 || sampleCostMicros < 0) {
            throw new IllegalArgumentException("slowdown clock and sample cost must be >= 0");
        }
        schedule = Collections.unmodifiableNavigableMap(new TreeMap<>(schedule));
        for (final Map.Entry<Long, Double> step : schedule.entrySet()) {
            if (step.getKey() < 0 || !(step.getValue() >= 1.0)) {
                throw new IllegalArgumentException("schedule steps need a clock >= 0 and a factor >= 1, not "
                        + step.getKey() + " -> " + step.getValue());
            }
        }
    }

    /** One slowdown {@code slowdown} from {@code slowdownFromClock} on. */
    public ComputeEmulation(final double slowdown, final long slowdownFromClock, final long sampleCostMicros) {
        this(slowdown, slowdownFromClock, sampleCostMicros, new TreeMap<>());
    }

    /** A slowdown that changes over time: from each step's clock on, the worker is the step's factor slower. */
    public static ComputeEmulation scheduled(final long sampleCostMicros, final Map<Long, Double> steps) {
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("a slowdown schedule needs at least one step");
        }
        final TreeMap<Long, Double> sorted = new TreeMap<>(steps);
        final double largest =
                sorted.values().stream().mapToDouble(Double::doubleValue).max().orElse(1.0);
        return new ComputeEmulation(Math.max(1.0, largest), sorted.firstKey(), sampleCostMicros, sorted);
    }

    /** How many times slower than its base cost the worker computes at {@code clock}. */
    public double slowdownAt(final long clock) {
        if (!schedule.isEmpty()) {
            final Map.Entry<Long, Double> step = schedule.floorEntry(clock);
            return step == null ? 1.0 : step.getValue();
        }
        return clock >= slowdownFromClock ? slowdown : 1.0;
    }

    /**
     * How long computing {@code samples} samples at {@code clock} with {@code threads} compute threads
     * should take, given it really took {@code realMs}. The emulated cost divides evenly among the
     * threads (a node granted k threads has k free cores), which is what the orchestrator's resource
     * lever assumes; the slowdown multiplies whatever the threads achieve.
     */
    public double targetMs(final double realMs, final int samples, final long clock, final int threads) {
        return targetMs(realMs, samples, clock, threads, 1.0);
    }

    /**
     * As {@link #targetMs(double, int, long, int)} for a part of the model's compute: each sample costs
     * {@code costFraction} of {@code sampleCostMicros}. A pipeline stage worker pads each micro-batch's
     * forward pass to a third of its stage's share and its backward pass to two thirds (backward is about
     * twice forward's multiply-adds).
     */
    public double targetMs(
            final double realMs, final int samples, final long clock, final int threads, final double costFraction) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, not " + threads);
        }
        if (!(costFraction >= 0 && costFraction <= 1)) {
            throw new IllegalArgumentException("cost fraction must be in [0, 1], not " + costFraction);
        }
        final double base = Math.max(realMs, samples * sampleCostMicros * costFraction / 1000.0 / threads);
        return base * slowdownAt(clock);
    }

    public boolean active() {
        return slowdown > 1.0 || sampleCostMicros > 0;
    }
}
