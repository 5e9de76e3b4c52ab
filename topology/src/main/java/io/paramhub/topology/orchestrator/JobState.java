package io.paramhub.topology.orchestrator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the orchestrator knows of one job, the value of {@link OrchestratorTopology#JOB_STATE_STORE}
 * (key = job): every worker's speed window, reported threads and share, its planned share and threads
 * and straggler flag, and the job's plan bookkeeping (last plan version, round of the last plan, last
 * round evaluated, hysteresis streak). Workers are kept in name order, so plans are deterministic.
 *
 * <p>An immutable value: {@link PlanningProcessor} moves a job from one state to the next with the
 * transitions below ({@link #reported}, {@link #evaluatedAt}, {@link #judged}, {@link #gainHeld},
 * {@link #gainMissed}, {@link #planIssued}), each returning a new state. Stored as Avro
 * ({@code OrchestratorJobState}) by {@link JobStateSerde}, which also reads the hand-written format of
 * earlier stores.
 *
 * @param workers            every worker seen for the job, by name
 * @param planVersion        version of the last plan issued (0 for the first), {@value #NONE} if none
 * @param lastPlanRound      round (smallest clock every worker has reported) at which the last plan went
 *                           out, {@value #NONE} if none
 * @param lastEvaluatedRound the last round the job was evaluated at, {@value #NONE} if none
 * @param gainStreak         consecutive evaluations whose plan would have cleared the gain threshold
 */
public record JobState(
        SortedMap<String, Worker> workers,
        long planVersion,
        long lastPlanRound,
        long lastEvaluatedRound,
        int gainStreak) {

    static final long NONE = -1L;
    /** A job nothing is known of yet. */
    static final JobState EMPTY = new JobState(new TreeMap<>(), NONE, NONE, NONE, 0);

    public JobState {
        workers = Collections.unmodifiableSortedMap(new TreeMap<>(workers));
    }

    /** Worker {@code name}, or {@link Worker#UNSEEN} if it has not reported. */
    Worker worker(final String name) {
        final Worker known = workers.get(name);
        return known != null ? known : Worker.UNSEEN;
    }

    /**
     * Worker {@code name}'s telemetry of {@code clock} taken in: its iteration ({@code samples} in
     * {@code computeMs}) joins its speed window of at most {@code window} iterations, and its threads,
     * share and applied plan version are the reported ones.
     */
    JobState reported(
            final String name,
            final long clock,
            final int samples,
            final double computeMs,
            final int threads,
            final double share,
            final long appliedPlanVersion,
            final int window) {
        return withWorker(
                name, worker(name).reported(clock, samples, computeMs, window, threads, share, appliedPlanVersion));
    }

    /** The job evaluated at {@code round}. */
    JobState evaluatedAt(final long round) {
        return new JobState(workers, planVersion, lastPlanRound, round, gainStreak);
    }

    /** The workers named in {@code stragglers} flagged as stragglers, the others not. */
    JobState judged(final Collection<String> stragglers) {
        final SortedMap<String, Worker> next = new TreeMap<>();
        workers.forEach((name, w) -> next.put(name, w.withStraggler(stragglers.contains(name))));
        return new JobState(next, planVersion, lastPlanRound, lastEvaluatedRound, gainStreak);
    }

    /** One more evaluation in a row whose plan clears the gain threshold. */
    JobState gainHeld() {
        return new JobState(workers, planVersion, lastPlanRound, lastEvaluatedRound, gainStreak + 1);
    }

    /** An evaluation whose plan does not clear the gain threshold: the streak starts again. */
    JobState gainMissed() {
        return new JobState(workers, planVersion, lastPlanRound, lastEvaluatedRound, 0);
    }

    /**
     * {@code plan} issued at {@code round} as the next plan version: every worker's planned share and
     * threads are the plan's, and the streak starts again.
     */
    JobState planIssued(final long round, final LoadPlan plan) {
        final SortedMap<String, Worker> next = new TreeMap<>();
        workers.forEach((name, w) -> next.put(
                name, w.withPlan(plan.shares().get(name), plan.threads().get(name))));
        return new JobState(next, planVersion + 1, round, lastEvaluatedRound, 0);
    }

    private JobState withWorker(final String name, final Worker worker) {
        final SortedMap<String, Worker> next = new TreeMap<>(workers);
        next.put(name, worker);
        return new JobState(next, planVersion, lastPlanRound, lastEvaluatedRound, gainStreak);
    }

    /**
     * One worker: its last iterations and what it last reported and was told.
     *
     * @param window             its last iterations with a usable speed, oldest first
     * @param lastClock          clock of its last telemetry, {@value JobState#NONE} before any
     * @param threads            compute threads in its last telemetry
     * @param share              batch share in its last telemetry
     * @param appliedPlanVersion plan version it last reported applying, {@value JobState#NONE} if none
     * @param plannedShare       share of the last plan, NaN if none
     * @param plannedThreads     threads of the last plan, 0 if none
     * @param straggler          whether the last evaluation found it a straggler
     * @param speed              samples per second of the part of its compute time that grows with the samples,
     *                           over the window ({@link CostFit#msPerSample}), 0 before a usable iteration
     * @param cost               its compute time a clock fitted as a fixed part plus a part a sample
     */
    public record Worker(
            List<Iteration> window,
            long lastClock,
            int threads,
            double share,
            long appliedPlanVersion,
            double plannedShare,
            int plannedThreads,
            boolean straggler,
            double speed,
            CostFit cost) {

        /** A worker not heard from yet. */
        static final Worker UNSEEN = new Worker(List.of(), NONE, 1, 0, NONE, Double.NaN, 0, false, 0, CostFit.NONE);

        public Worker {
            window = List.copyOf(window);
        }

        /**
         * The part of a clock's compute time, in ms, that does not depend on its samples: the cost fit's fixed part
         * at the window's speed; 0 before the fit could tell it apart.
         */
        public double fixedMs() {
            return window.isEmpty() ? 0 : cost.fixedSamples() * cost.msPerSample(window);
        }

        /**
         * Its telemetry of {@code clock} taken in: an iteration with samples and a finite positive compute
         * time joins the window, which keeps the last {@code size}, and the speed is the window's again.
         */
        Worker reported(
                final long clock,
                final int samples,
                final double computeMs,
                final int size,
                final int reportedThreads,
                final double reportedShare,
                final long applied) {
            List<Iteration> nextWindow = window;
            double nextSpeed = speed;
            CostFit nextCost = cost;
            if (samples > 0 && computeMs > 0 && !Double.isInfinite(computeMs)) {
                final List<Iteration> grown = new ArrayList<>(window);
                grown.add(new Iteration(clock, samples, computeMs));
                nextWindow = grown.subList(Math.max(0, grown.size() - size), grown.size());
                nextCost = cost.with(samples, computeMs);
                nextSpeed = 1000.0 / nextCost.msPerSample(nextWindow);
            }
            return new Worker(
                    nextWindow,
                    clock,
                    reportedThreads,
                    reportedShare,
                    applied,
                    plannedShare,
                    plannedThreads,
                    straggler,
                    nextSpeed,
                    nextCost);
        }

        Worker withStraggler(final boolean flagged) {
            return new Worker(
                    window,
                    lastClock,
                    threads,
                    share,
                    appliedPlanVersion,
                    plannedShare,
                    plannedThreads,
                    flagged,
                    speed,
                    cost);
        }

        Worker withPlan(final double planShare, final int planThreads) {
            return new Worker(
                    window,
                    lastClock,
                    threads,
                    share,
                    appliedPlanVersion,
                    planShare,
                    planThreads,
                    straggler,
                    speed,
                    cost);
        }

        /**
         * Relative standard error of {@link #speed()}: the standard deviation of the window's per-iteration
         * speeds (samples with the fit's fixed part added, over the compute time) over their mean, over the square
         * root of the window size; 0 with fewer than 2 iterations.
         */
        public double noise() {
            final int n = window.size();
            if (n < 2) {
                return 0;
            }
            double sum = 0;
            double squares = 0;
            for (final Iteration it : window) {
                final double x = (it.samples() + cost.fixedSamples()) / (it.computeMs() / 1000.0);
                sum += x;
                squares += x * x;
            }
            final double mean = sum / n;
            final double variance = Math.max(0, (squares - n * mean * mean) / (n - 1));
            return Math.sqrt(variance) / mean / Math.sqrt(n);
        }

        /** Iterations in the window. */
        public int windowSize() {
            return window.size();
        }
    }

    /** One iteration in a speed window: {@code samples} computed in {@code computeMs}. */
    public record Iteration(long clock, int samples, double computeMs) {}
}
