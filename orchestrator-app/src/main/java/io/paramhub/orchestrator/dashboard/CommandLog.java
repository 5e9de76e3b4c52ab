package io.paramhub.orchestrator.dashboard;

import io.paramhub.avro.ResourceCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The orchestrator's plans for one job as issued on {@code commands}: one entry per epoch, with its
 * reason, when it was issued and each worker's share and threads; the newest {@code capacity} epochs.
 */
final class CommandLog {

    /** One plan: the commands of one epoch. */
    record Plan(long epoch, long issuedAtMs, String reason, SortedMap<String, ResourceCommand> byWorker) {
    }

    private final int capacity;
    private final TreeMap<Long, Plan> plans = new TreeMap<>();
    private long newestEpoch = -1;

    CommandLog(final int capacity) {
        this.capacity = capacity;
    }

    /** Takes one command; says whether it added anything. */
    boolean add(final ResourceCommand command) {
        final long epoch = command.getEpoch();
        if (epoch < 0 || !plans.containsKey(epoch) && plans.size() >= capacity && epoch < plans.firstKey()) {
            return false;
        }
        final Plan plan = plans.computeIfAbsent(epoch, e -> new Plan(e, command.getIssuedAt().toEpochMilli(),
            command.getReason(), new TreeMap<>()));
        plan.byWorker().put(command.getWorker(), command);
        newestEpoch = Math.max(newestEpoch, epoch);
        while (plans.size() > capacity) {
            plans.pollFirstEntry();
        }
        return true;
    }

    /** Epoch of the newest plan, -1 if none. */
    long newestEpoch() {
        return newestEpoch;
    }

    /** The plans held, newest first. */
    List<Plan> newestFirst() {
        return new ArrayList<>(plans.descendingMap().values());
    }
}
