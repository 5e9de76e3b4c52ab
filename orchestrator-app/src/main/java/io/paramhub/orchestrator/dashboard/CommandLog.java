package io.paramhub.orchestrator.dashboard;

import io.paramhub.avro.ResourceCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The orchestrator's plans for one job as issued on {@code commands}: one entry per plan version (a
 * command's {@code epoch} field), with its reason, when it was issued and each worker's share and
 * threads; the newest {@code capacity} plans.
 */
final class CommandLog {

    /** One plan as issued: the commands of one plan version. */
    record IssuedPlan(long version, long issuedAtMs, String reason, SortedMap<String, ResourceCommand> byWorker) {}

    private final int capacity;
    private final TreeMap<Long, IssuedPlan> plans = new TreeMap<>();
    private long newestVersion = -1;

    CommandLog(final int capacity) {
        this.capacity = capacity;
    }

    /** Takes one command; says whether it added anything. */
    boolean add(final ResourceCommand command) {
        final long version = command.getEpoch();
        if (version < 0 || !plans.containsKey(version) && plans.size() >= capacity && version < plans.firstKey()) {
            return false;
        }
        final IssuedPlan plan = plans.computeIfAbsent(
                version,
                v -> new IssuedPlan(v, command.getIssuedAt().toEpochMilli(), command.getReason(), new TreeMap<>()));
        plan.byWorker().put(command.getWorker(), command);
        newestVersion = Math.max(newestVersion, version);
        while (plans.size() > capacity) {
            plans.pollFirstEntry();
        }
        return true;
    }

    /** Version of the newest plan, -1 if none. */
    long newestVersion() {
        return newestVersion;
    }

    /** The plans held, newest first. */
    List<IssuedPlan> newestFirst() {
        return new ArrayList<>(plans.descendingMap().values());
    }
}
