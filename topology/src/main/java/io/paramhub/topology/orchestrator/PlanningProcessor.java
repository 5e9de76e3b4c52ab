package io.paramhub.topology.orchestrator;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.jobs.StagePlan;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Telemetry keyed by job → {@code ResourceCommand}s keyed {@code job/worker}, one per worker of each plan.
 *
 * <p>Each record updates its worker's speed window in the job's {@link JobState}, which it replaces in
 * {@link OrchestratorTopology#JOB_STATE_STORE} with the state the record leads to. A job is evaluated
 * once per <em>round</em>: when every expected worker has a full speed window and the smallest clock among
 * them (the round) has advanced. Expected workers are the job's {@code expectedWorkers} from the global
 * {@code jobs} store, or, for a job not (yet) there, the workers seen so far. An evaluation plans
 * ({@link Planner}) and issues the {@link LoadPlan}, with the job's next plan version, when
 * <ul>
 *   <li>there is a straggler, or a plan is already in effect (so a recovered straggler's shares are
 *   rebalanced), and</li>
 *   <li>the plan shortens the predicted iteration time by at least {@code minGain} plus a noise margin
 *   (twice the largest relative standard error of the workers' windowed speeds, {@link JobState.Worker#noise()}),
 *   so that speeds measured within their own noise do not look like a gain, and</li>
 *   <li>it is the first plan, or the gain has held in {@code minInterval} consecutive rounds and at
 *   least {@code minInterval} clocks have passed since the last plan (noise rarely persists that long).</li>
 * </ul>
 * The allocation "in effect" is the last plan's shares, or before any plan the shares workers report.
 * With both levers off ({@link OrchestratorSettings#observeOnly()}) it flags stragglers and issues nothing.
 *
 * <p>A deleted job (a tombstone on {@code jobs}, which removes it from the global job store): every
 * {@link #SWEEP_INTERVAL} of wall-clock time the job states of this task whose job had a spec and has none
 * any more are deleted, with the job's meters. A job deleted while this task was not running keeps its state.
 *
 * <p>Telemetry may name a job before its spec reaches the global store, so such a job gets a state too; but at
 * most {@link #MAX_JOBS_WITHOUT_SPEC} of them per task, so that records naming made-up jobs cannot grow the store
 * without bound: telemetry of a further job without a spec is dropped (and counted in the log) until one of them
 * gets its spec or the count falls.
 */
final class PlanningProcessor implements Processor<String, IterationTelemetry, String, ResourceCommand> {

    private static final Logger log = LoggerFactory.getLogger(PlanningProcessor.class);

    /** Standard errors of the windowed speeds a gain must clear on top of {@code minGain}. */
    static final double NOISE_MARGIN = 2.0;
    /** How often the task looks for job states of deleted jobs. */
    static final Duration SWEEP_INTERVAL = Duration.ofSeconds(1);
    /** The most jobs without a spec whose state one task keeps. */
    static final int MAX_JOBS_WITHOUT_SPEC = 100;

    private final OrchestratorSettings settings;
    private final OrchestratorMetrics metrics;
    /** Jobs of this task seen with a spec in the global store: those whose spec goes away were deleted. */
    private final Set<String> specified = new HashSet<>();
    /** Hybrid jobs already told to be left unplanned. */
    private final Set<String> unplannable = new HashSet<>();

    private ProcessorContext<String, ResourceCommand> context;
    private KeyValueStore<String, JobState> states;
    private KeyValueStore<String, JobSpec> specs;
    /** States of this task's jobs that have no spec and never had one here, as of the last sweep and since. */
    private int withoutSpec;

    private long droppedWithoutSpec;

    PlanningProcessor(final OrchestratorSettings settings, final OrchestratorMetrics metrics) {
        this.settings = settings;
        this.metrics = metrics;
    }

    @Override
    public void init(final ProcessorContext<String, ResourceCommand> context) {
        this.context = context;
        this.states = context.getStateStore(OrchestratorTopology.JOB_STATE_STORE);
        this.specs = context.getStateStore(OrchestratorTopology.JOB_SPEC_STORE);
        context.schedule(SWEEP_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> sweepDeletedJobs());
        sweepDeletedJobs();
    }

    /**
     * Deletes the state and meters of each job of this task that had a spec and has none any more, and counts the
     * jobs that never had one.
     */
    private void sweepDeletedJobs() {
        final List<String> deleted = new ArrayList<>();
        int neverSpecified = 0;
        try (KeyValueIterator<String, JobState> all = states.all()) {
            while (all.hasNext()) {
                final String job = all.next().key;
                if (specs.get(job) != null) {
                    specified.add(job);
                } else if (specified.contains(job)) {
                    deleted.add(job);
                } else {
                    neverSpecified++;
                }
            }
        }
        withoutSpec = neverSpecified;
        for (final String job : deleted) {
            states.delete(job);
            specified.remove(job);
            unplannable.remove(job);
            metrics.forget(job);
            log.info("job {} deleted: its orchestrator state is dropped", job);
        }
    }

    @Override
    public void process(final Record<String, IterationTelemetry> record) {
        final IterationTelemetry telemetry = record.value();
        if (telemetry == null) {
            return;
        }
        final String job = telemetry.getJob();
        final JobState stored = states.get(job);
        if (stored == null && specs.get(job) == null && !admitWithoutSpec(job)) {
            return;
        }
        final JobState known = stored != null ? stored : JobState.EMPTY;
        if (telemetry.getClock() <= known.worker(telemetry.getWorker()).lastClock()) {
            log.debug("old telemetry of {}/{} at clock {} ignored", job, telemetry.getWorker(), telemetry.getClock());
            return;
        }
        final JobState reported = known.reported(
                telemetry.getWorker(),
                telemetry.getClock(),
                telemetry.getSamples(),
                telemetry.getComputeMs(),
                Math.max(1, telemetry.getThreads()),
                telemetry.getBatchShare(),
                telemetry.getCommandEpoch(),
                settings.window());

        final long round = round(reported, expectedWorkers(job, reported), settings.window());
        states.put(
                job,
                round > reported.lastEvaluatedRound()
                        ? evaluate(job, reported.evaluatedAt(round), round, record.timestamp())
                        : reported);
    }

    /** Whether a first record of {@code job}, which has no spec, may start a state: fewer than the cap have one. */
    private boolean admitWithoutSpec(final String job) {
        if (withoutSpec < MAX_JOBS_WITHOUT_SPEC) {
            withoutSpec++;
            return true;
        }
        if (droppedWithoutSpec++ % 1_000 == 0) {
            log.warn(
                    "telemetry of job {} dropped: it has no spec on jobs and this task already keeps {} jobs without "
                            + "one ({} such records dropped so far)",
                    job,
                    MAX_JOBS_WITHOUT_SPEC,
                    droppedWithoutSpec);
        }
        return false;
    }

    private int expectedWorkers(final String job, final JobState state) {
        final JobSpec spec = specs.get(job);
        if (spec != null) {
            specified.add(job);
        }
        return spec != null ? spec.getExpectedWorkers() : state.workers().size();
    }

    /**
     * The smallest clock every expected worker has reported, once each has a full speed window ({@code window}
     * usable iterations), or -1 before that: a worker's first clock alone (a cold start, its noise not yet measured)
     * would make a plan of noise, and the plans that follow are held back by the noise margin and the interval.
     */
    private static long round(final JobState state, final int expected, final int window) {
        if (state.workers().size() < expected) {
            return JobState.NONE;
        }
        long round = Long.MAX_VALUE;
        for (final JobState.Worker w : state.workers().values()) {
            if (!(w.speed() > 0) || w.windowSize() < window) {
                return JobState.NONE;
            }
            round = Math.min(round, w.lastClock());
        }
        return round;
    }

    /**
     * A hybrid job: each stage's workers are judged against each other (stages compute different parts of
     * the model, so their speeds are not comparable), and stragglers are flagged, but no plan is issued: the
     * stages of a replica must all compute the replica's one share of the batch, and a stage worker computes
     * on one thread, so neither shares nor threads can be moved; said once per job.
     */
    private JobState judgedByStage(
            final String job,
            final JobSpec spec,
            final JobState evaluated,
            final SortedMap<String, Double> speeds,
            final SortedMap<String, Integer> threads,
            final SortedMap<String, Double> shares) {
        final List<String> stragglers = new ArrayList<>();
        final int stages = spec.getStages();
        for (int stage = 0; stage < stages; stage++) {
            final int k = stage;
            final SortedMap<String, Double> stageSpeeds = new TreeMap<>();
            speeds.forEach((worker, speed) -> {
                if (StagePlan.stageOf(spec, worker) == k) {
                    stageSpeeds.put(worker, speed);
                }
            });
            if (!stageSpeeds.isEmpty()) {
                final SortedMap<String, Integer> stageThreads = new TreeMap<>(threads);
                stageThreads.keySet().retainAll(stageSpeeds.keySet());
                final SortedMap<String, Double> stageShares = new TreeMap<>(shares);
                stageShares.keySet().retainAll(stageSpeeds.keySet());
                stragglers.addAll(Planner.plan(stageSpeeds, stageThreads, stageShares, settings)
                        .stragglers());
            }
        }
        if (unplannable.add(job)) {
            log.info(
                    "job {} runs {} pipeline stages: stragglers are flagged within each stage, but no plan is issued "
                            + "(a replica's stages must compute one share of the batch, a stage worker one thread)",
                    job,
                    stages);
        }
        return evaluated.judged(stragglers);
    }

    /** Judges the job at {@code round} and issues a plan if one is due; returns the job's next state. */
    private JobState evaluate(final String job, final JobState evaluated, final long round, final long timestamp) {
        final SortedMap<String, Double> speeds = new TreeMap<>();
        final Map<String, Double> fixed = new TreeMap<>();
        final SortedMap<String, Integer> threads = new TreeMap<>();
        final SortedMap<String, Double> shares = new TreeMap<>();
        final boolean planned = evaluated.workers().values().stream().noneMatch(w -> Double.isNaN(w.plannedShare()));
        evaluated.workers().forEach((name, w) -> {
            speeds.put(name, w.speed());
            fixed.put(name, w.fixedMs() / 1000.0);
            threads.put(name, w.threads());
            shares.put(
                    name,
                    planned
                            ? w.plannedShare()
                            : w.share() > 0
                                    ? w.share()
                                    : 1.0 / evaluated.workers().size());
        });
        final JobSpec spec = specs.get(job);
        if (spec != null && StagePlan.hybrid(spec)) {
            return judgedByStage(job, spec, evaluated, speeds, threads, shares);
        }
        // a job whose spec has not arrived yet is planned without fixed parts (its batch is not known)
        final LoadPlan plan =
                Planner.plan(speeds, fixed, threads, shares, spec != null ? spec.getGlobalBatch() : 0, settings);
        final JobState judged = evaluated.judged(plan.stragglers());
        if (!settings.issuesCommands()) {
            return judged; // observe-only: flags, no plan
        }

        final boolean first = judged.planVersion() == JobState.NONE;
        final double noise = judged.workers().values().stream()
                .mapToDouble(JobState.Worker::noise)
                .max()
                .orElse(0);
        if ((first && plan.stragglers().isEmpty()) || plan.gain() < settings.minGain() + NOISE_MARGIN * noise) {
            return judged.gainMissed();
        }
        final JobState held = judged.gainHeld();
        final boolean due = first
                || held.gainStreak() >= settings.minInterval()
                        && round - held.lastPlanRound() >= settings.minInterval();
        if (!due) {
            return held;
        }
        final JobState issued = held.planIssued(round, plan);
        final String reason = reason(plan);
        log.info("job {} plan version {} at round {}: {}", job, issued.planVersion(), round, reason);
        final Map<String, Double> speedMap = new TreeMap<>(plan.speeds());
        issued.workers().forEach((name, w) -> {
            final ResourceCommand command = ResourceCommand.newBuilder()
                    .setJob(job)
                    .setWorker(name)
                    .setEpoch(issued.planVersion())
                    .setThreads(w.plannedThreads())
                    .setBatchShare(w.plannedShare())
                    .setReason(reason)
                    .setSpeeds(speedMap)
                    .setIssuedAt(Instant.ofEpochMilli(timestamp))
                    .build();
            context.forward(new Record<>(ShardKeys.worker(job, name), command, timestamp));
        });
        context.commit();
        return issued;
    }

    static String reason(final LoadPlan plan) {
        final List<String> parts = new ArrayList<>();
        for (final String slow : plan.stragglers()) {
            parts.add(String.format(
                    Locale.ROOT,
                    "%s is a straggler: %.0f samples/s vs median %.0f",
                    slow,
                    plan.speeds().get(slow),
                    plan.median()));
        }
        if (plan.stragglers().isEmpty()) {
            parts.add(String.format(
                    Locale.ROOT,
                    "no straggler: rebalancing to measured speeds (median %.0f samples/s)",
                    plan.median()));
        }
        plan.threadsAdded().forEach((worker, delta) -> {
            if (delta != 0) {
                parts.add(
                        String.format(Locale.ROOT, "%s %+d thread%s", worker, delta, Math.abs(delta) == 1 ? "" : "s"));
            }
        });
        parts.add(String.format(Locale.ROOT, "predicted iteration time -%.0f%%", 100 * plan.gain()));
        return String.join("; ", parts);
    }
}
