package io.paramhub.bench;

import io.paramhub.avro.SyncMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** A synchronisation policy the bench compares: a sync mode, and whether the orchestrator runs. */
public enum Policy {

    /** Bulk synchronous, equal shares. */
    BSP("bsp", SyncMode.BSP, false),
    /** Stale synchronous with the bench's staleness bound. */
    SSP("ssp", SyncMode.SSP, false),
    /** Asynchronous. */
    ASP("asp", SyncMode.ASP, false),
    /** Bulk synchronous with the orchestrator planning shares and threads. */
    PARAMHUB("paramhub", SyncMode.BSP, true);

    private final String label;
    private final SyncMode sync;
    private final boolean orchestrated;

    Policy(final String label, final SyncMode sync, final boolean orchestrated) {
        this.label = label;
        this.sync = sync;
        this.orchestrated = orchestrated;
    }

    public String label() {
        return label;
    }

    public SyncMode sync() {
        return sync;
    }

    public boolean orchestrated() {
        return orchestrated;
    }

    /** The policies of a comma-separated list, in its order, each once. */
    public static List<Policy> parseList(final String list) {
        final List<Policy> policies = new ArrayList<>();
        for (final String name : list.split(",")) {
            final Policy policy = parse(name);
            if (policies.contains(policy)) {
                throw new IllegalArgumentException("--policies names " + policy.label + " twice");
            }
            policies.add(policy);
        }
        return policies;
    }

    static Policy parse(final String name) {
        for (final Policy policy : values()) {
            if (policy.label.equals(name.trim().toLowerCase(Locale.ROOT))) {
                return policy;
            }
        }
        throw new IllegalArgumentException("--policies takes a comma-separated list of "
                + Arrays.stream(values()).map(Policy::label).collect(Collectors.joining(", ")) + "; not " + name);
    }
}
