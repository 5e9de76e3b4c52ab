package io.paramhub.embedded;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * Emulated aggregator instances (a picocli mixin of {@code paramhub demo} and {@code paramhub bench}):
 * {@code --aggregator-slowdown I:F} and {@code --aggregator-cost-us}, turned into a {@link ServerEmulation}.
 */
public final class ServerEmulationOptions {

    /**
     * The emulated cost of a shard-round when an aggregator slowdown is asked for and no cost is given: 10 ms,
     * tens of times what a shard-round of the demo's models really costs and about the 20-30 ms an
     * exactly-once BSP round trip through Kafka costs, so that a slow instance's shards, not the protocol,
     * decide the round, as an emulated slow worker's compute does.
     */
    static final long SLOWDOWN_ROUND_COST_US = 10_000;

    private static final Pattern SLOWDOWN = Pattern.compile("(\\d+):(\\d+(?:\\.\\d+)?)");

    @Option(
            names = "--aggregator-slowdown",
            paramLabel = "I:F",
            description = "Emulate a slow parameter server: aggregator instance I (from 0) takes F times as long "
                    + "for each shard-round, by sleeping on its stream thread, which slows every shard it holds. "
                    + "Repeatable; needs --aggregators above I.")
    private List<String> slowdowns = List.of();

    @Option(
            names = "--aggregator-cost-us",
            description = "Emulated cost of one shard-round on an aggregator instance, padded by sleeping (default: "
                    + SLOWDOWN_ROUND_COST_US + " with --aggregator-slowdown, else 0: the real cost).")
    private Long roundCostMicros;

    /** Whether an aggregator slowdown was asked for. */
    public boolean slowed() {
        return !slowdowns.isEmpty();
    }

    /**
     * The emulation of {@code aggregators} instances; throws {@link IllegalArgumentException} with the option's
     * name for a malformed value or an index without an instance.
     */
    public ServerEmulation emulation(final int aggregators) {
        final Map<Integer, Double> factors = new HashMap<>();
        for (final String slowdown : slowdowns) {
            final Matcher parsed = SLOWDOWN.matcher(slowdown);
            if (!parsed.matches()
                    || Integer.parseInt(parsed.group(1)) >= aggregators
                    || Double.parseDouble(parsed.group(2)) < 1) {
                throw new IllegalArgumentException("--aggregator-slowdown must be I:F with an aggregator index I below "
                        + "--aggregators (" + aggregators + ") and a factor F >= 1, e.g. 1:4; not " + slowdown);
            }
            factors.put(Integer.parseInt(parsed.group(1)), Double.parseDouble(parsed.group(2)));
        }
        final long cost = roundCostMicros != null ? roundCostMicros : slowed() ? SLOWDOWN_ROUND_COST_US : 0;
        if (cost < 0) {
            throw new IllegalArgumentException("--aggregator-cost-us must be >= 0, not " + cost);
        }
        return new ServerEmulation(cost, factors);
    }
}
