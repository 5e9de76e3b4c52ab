package io.paramhub.embedded;

import java.util.Map;

/**
 * Emulated aggregator instances for the demo and the bench: every shard-round costs at least
 * {@code roundCostMicros} (the real work is done, the rest padded by sleeping on the stream thread), and
 * the instance of each index in {@code slowdowns} is that many times slower (like a worker's
 * {@code ComputeEmulation}, per shard-round instead of per sample).
 */
public record ServerEmulation(long roundCostMicros, Map<Integer, Double> slowdowns) {

    public static final ServerEmulation NONE = new ServerEmulation(0, Map.of());

    public ServerEmulation {
        if (roundCostMicros < 0) {
            throw new IllegalArgumentException("the shard-round cost must be >= 0, not " + roundCostMicros);
        }
        slowdowns = Map.copyOf(slowdowns);
        slowdowns.forEach((index, factor) -> {
            if (index < 0 || !(factor >= 1.0)) {
                throw new IllegalArgumentException(
                        "an aggregator slowdown needs an index >= 0 and a factor >= 1, not " + index + ":" + factor);
            }
        });
    }

    /** How many times slower aggregator instance {@code index} is. */
    public double slowdownOf(final int index) {
        return slowdowns.getOrDefault(index, 1.0);
    }
}
