package io.paramhub.orchestrator.dashboard;

import io.paramhub.topology.orchestrator.JobState;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the orchestrator thinks of one job, as read from its store ({@link JobState}): the version of its
 * last plan and, per worker, its windowed speed, straggler flag and planned allocation.
 *
 * @param planVersion version of the last plan issued, -1 if none
 * @param workers     by worker name
 */
record PlannerView(long planVersion, Map<String, Judgement> workers) {

    /**
     * One worker as the orchestrator judges it.
     *
     * @param speed          samples per compute-second over its window, 0 before a usable iteration
     * @param plannedShare   share of the last plan, NaN if none
     * @param plannedThreads threads of the last plan, 0 if none
     */
    record Judgement(double speed, boolean straggler, double plannedShare, int plannedThreads) {}

    PlannerView {
        workers = Map.copyOf(workers);
    }

    static PlannerView of(final JobState state) {
        final Map<String, Judgement> workers = new TreeMap<>();
        state.workers()
                .forEach((name, w) -> workers.put(
                        name, new Judgement(w.speed(), w.straggler(), w.plannedShare(), w.plannedThreads())));
        return new PlannerView(state.planVersion(), workers);
    }
}
