package io.paramhub.topology.aggregator;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.config.ConfigException;

/**
 * Who an aggregator instance is and how slow it pretends to be: the settings a shard task reads from its
 * app's configuration to report {@code server-telemetry} and to emulate a slow server.
 *
 * @param id              {@value #INSTANCE_ID_CONFIG}: names the instance in {@code server-telemetry} and in the
 *                        orchestrator's {@code placements}; also the Kafka Streams client tag
 *                        {@value #CLIENT_TAG} by which the placement assignor recognises the instance
 * @param roundCostMicros {@value #ROUND_COST_CONFIG}: emulated base cost of one shard-round (0 = none); a
 *                        shard-round that took less is padded up to it by sleeping on the stream thread
 * @param slowdown        {@value #SLOWDOWN_CONFIG}: this instance is this many times slower than its base
 *                        (the real time, or the emulated cost if larger); 1 = not slowed
 */
public record AggregatorInstance(String id, long roundCostMicros, double slowdown) {

    public static final String INSTANCE_ID_CONFIG = "paramhub.aggregator.instance.id";
    public static final String ROUND_COST_CONFIG = "paramhub.aggregator.emulation.round.cost.us";
    public static final String SLOWDOWN_CONFIG = "paramhub.aggregator.emulation.slowdown";
    /** Kafka Streams client tag key ({@code client.tag.<key>}) that carries the instance id to the assignor. */
    public static final String CLIENT_TAG = "paramhub-instance";
    /** Kafka Streams limits a client tag value to 30 characters. */
    public static final int MAX_ID_LENGTH = 30;

    private static final AtomicInteger STARTED_IN_THIS_JVM = new AtomicInteger();

    public AggregatorInstance {
        if (id == null || id.isBlank() || id.length() > MAX_ID_LENGTH) {
            throw new ConfigException(INSTANCE_ID_CONFIG, id, "must be 1 to " + MAX_ID_LENGTH + " characters");
        }
        if (roundCostMicros < 0) {
            throw new ConfigException(ROUND_COST_CONFIG, roundCostMicros, "must be >= 0");
        }
        if (!(slowdown >= 1.0)) {
            throw new ConfigException(SLOWDOWN_CONFIG, slowdown, "must be >= 1");
        }
    }

    /** The instance's settings in {@code appConfigs}; the id is required (the runner always sets one). */
    public static AggregatorInstance from(final Map<?, ?> appConfigs) {
        final Object id = appConfigs.get(INSTANCE_ID_CONFIG);
        return new AggregatorInstance(
                id == null ? "unnamed" : id.toString().trim(),
                parseLong(appConfigs, ROUND_COST_CONFIG, 0),
                parseDouble(appConfigs, SLOWDOWN_CONFIG, 1.0));
    }

    /**
     * A default id that is unique and stable for the life of this process: the end of the host name (a pod's
     * name in Kubernetes), the process id and, for a second instance in the same JVM, a counter.
     */
    public static String defaultId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (final UnknownHostException e) {
            host = "aggregator";
        }
        final int started = STARTED_IN_THIS_JVM.incrementAndGet();
        final String suffix = "-" + ProcessHandle.current().pid() + (started > 1 ? "-" + started : "");
        final int room = MAX_ID_LENGTH - suffix.length();
        final String base = host.length() > room ? host.substring(host.length() - room) : host;
        return (base + suffix).toLowerCase(Locale.ROOT);
    }

    /** Whether shard-rounds are padded: a base cost or a slowdown. */
    public boolean emulated() {
        return roundCostMicros > 0 || slowdown > 1.0;
    }

    /** How long a shard-round that really took {@code busyMs} should take on this instance. */
    public double targetMs(final double busyMs) {
        return Math.max(busyMs, roundCostMicros / 1000.0) * slowdown;
    }

    private static long parseLong(final Map<?, ?> configs, final String key, final long fallback) {
        final Object value = configs.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            return Long.parseLong(value.toString().trim());
        } catch (final NumberFormatException e) {
            throw new ConfigException(key, value, "must be a whole number");
        }
    }

    private static double parseDouble(final Map<?, ?> configs, final String key, final double fallback) {
        final Object value = configs.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            return Double.parseDouble(value.toString().trim());
        } catch (final NumberFormatException e) {
            throw new ConfigException(key, value, "must be a number");
        }
    }
}
