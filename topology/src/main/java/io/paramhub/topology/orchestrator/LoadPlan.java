package io.paramhub.topology.orchestrator;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * The orchestrator's reallocation decision for one job, as {@link Planner} computes it: each worker's
 * batch share and compute threads, with what they were computed from (measured speeds, their median,
 * the stragglers, the speeds predicted with the planned threads, the threads each worker gains or gives
 * up) and the predicted iteration time before and after. {@link PlanningProcessor} issues it, when it
 * is worth it, as one {@code ResourceCommand} per worker with the job's next plan version.
 */
public record LoadPlan(
        SortedMap<String, Double> speeds,
        double median,
        List<String> stragglers,
        SortedMap<String, Double> shares,
        SortedMap<String, Integer> threads,
        SortedMap<String, Double> predictedSpeeds,
        Map<String, Integer> threadsAdded,
        double currentTime,
        double plannedTime) {

    /** Fraction by which the plan shortens the predicted iteration time (negative if it lengthens it). */
    public double gain() {
        return 1.0 - plannedTime / currentTime;
    }
}
