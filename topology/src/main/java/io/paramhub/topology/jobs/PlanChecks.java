package io.paramhub.topology.jobs;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ResourceCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What an orchestrator's plan may hold, as every reader of one checks it: the aggregator's {@code commands} fan-out
 * and shard 0 (the {@code ResourceCommand}s of {@code commands}), and the workers (the plan shard 0's {@code model}
 * records carry). A batch share is a finite number in [0, 1], the shares of a whole plan sum to one within
 * {@link #SHARE_SUM_TOLERANCE}, compute threads are between 1 and {@link #MAX_THREADS}, and every worker a plan names
 * is one of its job's. Reads and writes no topic.
 */
public final class PlanChecks {

    /**
     * Most compute threads a plan may give one worker: a worker sizes its pool (and its per-thread gradient buffers,
     * threads x parameters) by it. The orchestrator's {@code maxThreadsPerWorker} must stay within it.
     */
    public static final int MAX_THREADS = 64;
    /** How far the shares of one plan may sum from one: the planner's shares are doubles that sum to one. */
    public static final double SHARE_SUM_TOLERANCE = 1e-9;

    private PlanChecks() {}

    /**
     * Why {@code command} cannot come from the orchestrator of {@code spec}'s job (empty when it can, as far as one
     * command shows): its job, worker, share, threads, epoch and speeds.
     */
    public static List<String> problems(final ResourceCommand command, final JobSpec spec) {
        final List<String> problems = new ArrayList<>();
        if (!spec.getJob().equals(command.getJob())) {
            problems.add("command of job '" + command.getJob() + "' read as one of job '" + spec.getJob() + "'");
        }
        if (!WorkerIds.belongsTo(spec, command.getWorker())) {
            problems.add("worker '" + command.getWorker() + "' is not one of the job's " + spec.getExpectedWorkers());
        }
        final String share = shareProblem(command.getWorker(), command.getBatchShare());
        if (share != null) {
            problems.add(share);
        }
        final String threads = threadsProblem(command.getWorker(), command.getThreads());
        if (threads != null) {
            problems.add(threads);
        }
        if (command.getEpoch() < 0) {
            problems.add("epoch " + command.getEpoch() + " is negative");
        }
        final Map<String, Double> speeds = command.getSpeeds();
        if (!speeds.containsKey(command.getWorker())) {
            problems.add("speeds " + (speeds.isEmpty() ? "are empty" : "do not name the command's worker"));
        }
        speeds.forEach((worker, speed) -> {
            if (!WorkerIds.belongsTo(spec, worker)) {
                problems.add("speeds name '" + worker + "', not a worker of the job");
            } else if (!(Double.isFinite(speed) && speed >= 0)) {
                problems.add("speed " + speed + " of " + worker + " is not a finite number >= 0");
            }
        });
        return problems;
    }

    /**
     * Why the whole plan {@code shares} (worker → batch share) cannot be the orchestrator's, or null: each share in
     * [0, 1], all summing to one. An empty map is no plan and passes.
     */
    public static String sharesProblem(final Map<String, Double> shares) {
        double sum = 0;
        for (final Map.Entry<String, Double> share : shares.entrySet()) {
            final String problem = shareProblem(share.getKey(), share.getValue());
            if (problem != null) {
                return problem;
            }
            sum += share.getValue();
        }
        if (!shares.isEmpty() && Math.abs(sum - 1) > SHARE_SUM_TOLERANCE) {
            return "the plan's shares sum to " + sum + ", not 1";
        }
        return null;
    }

    /** Why the plan's {@code threads} (worker → compute threads) cannot be the orchestrator's, or null. */
    public static String threadsProblem(final Map<String, Integer> threads) {
        for (final Map.Entry<String, Integer> each : threads.entrySet()) {
            final String problem = threadsProblem(each.getKey(), each.getValue());
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static String shareProblem(final String worker, final Double share) {
        if (share == null || !(share >= 0 && share <= 1)) {
            return "batch share " + share + " of " + worker + " is not a number in [0, 1]";
        }
        return null;
    }

    private static String threadsProblem(final String worker, final Integer threads) {
        if (threads == null || threads < 1 || threads > MAX_THREADS) {
            return "threads " + threads + " of " + worker + " not between 1 and " + MAX_THREADS;
        }
        return null;
    }
}
