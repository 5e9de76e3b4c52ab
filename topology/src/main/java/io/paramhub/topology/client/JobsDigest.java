package io.paramhub.topology.client;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OffsetRange;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.topology.jobs.JobSpecs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the topics say about every job, taken record by record in offset order (each topic's newest record per
 * key wins, a tombstone removes its key) and summarised as {@link JobStatus}es: specs from {@code jobs} (a spec
 * that fails {@link JobSpecs#problems} is passed over, as {@link JobLookup} does), each shard's newest version
 * from {@code model} (kept without its parameters), workers from {@code membership}, plans from {@code commands},
 * and counts by reason from {@code dead-letters}. Reads nothing itself: {@link JobsReader} feeds it.
 *
 * <p>A dead letter belongs to the job its key names ({@code job} or {@code job/...}), or, for a bad example of a
 * topic job (keyed by the data topic's key), to the job its error text names.
 */
public final class JobsDigest {

    private static final Pattern EXAMPLE_OF_JOB = Pattern.compile(" of job (\\S+) cannot train on it");
    private static final Pattern STRAGGLER = Pattern.compile("([^\\s;]+) is a straggler");

    private final Map<String, JobSpec> specs = new TreeMap<>();
    private final Map<String, Map<Integer, ShardProgress>> shards = new HashMap<>();
    private final Map<String, SortedMap<String, WorkerStatus>> members = new HashMap<>();
    private final Map<String, SortedMap<String, ResourceCommand>> commands = new HashMap<>();
    private final Map<String, SortedMap<String, Long>> deadLetters = new HashMap<>();

    /** One shard's newest version, without its parameters. */
    private record ShardProgress(
            long version,
            long minClock,
            Map<String, Long> clocks,
            long planEpoch,
            long exampleOffsets,
            Instant updatedAt,
            boolean finalVersion) {

        static ShardProgress of(final ModelShard shard) {
            long offsets = -1;
            if (!shard.getExamples().isEmpty()) {
                offsets = 0;
                for (final OffsetRange range : shard.getExamples()) {
                    offsets += range.getEnd() - range.getStart();
                }
            }
            return new ShardProgress(
                    shard.getVersion(),
                    shard.getMinClock(),
                    new TreeMap<>(shard.getClocks()),
                    shard.getPlanEpoch(),
                    offsets,
                    shard.getUpdatedAt(),
                    shard.getFinalVersion());
        }
    }

    /** A record of {@code jobs}: the job's spec, or (null) its deletion. */
    public void job(final String key, final JobSpec spec) {
        if (spec == null) {
            specs.remove(key);
        } else if (JobSpecs.problems(spec).isEmpty()) {
            specs.put(key, spec);
        }
    }

    /** A record of {@code model}, keyed {@code job/shard}: a shard's version, or (null) its deletion. */
    public void model(final String key, final ModelShard shard) {
        if (shard == null) {
            final int slash = key == null ? -1 : key.lastIndexOf('/');
            if (slash > 0) {
                final Map<Integer, ShardProgress> held = shards.get(key.substring(0, slash));
                if (held != null) {
                    try {
                        held.remove(Integer.parseInt(key.substring(slash + 1)));
                    } catch (final NumberFormatException e) {
                        // not a key of ParamHub's: nothing to remove
                    }
                }
            }
            return;
        }
        shards.computeIfAbsent(shard.getJob(), job -> new HashMap<>()).put(shard.getShard(), ShardProgress.of(shard));
    }

    /** A record of {@code membership}, keyed {@code job/worker}: a worker's announcement, or (null) its removal. */
    public void membership(final String key, final WorkerStatus status) {
        if (status == null) {
            removeByKey(members, key);
            return;
        }
        members.computeIfAbsent(status.getJob(), job -> new TreeMap<>()).put(status.getWorker(), status);
    }

    /** A record of {@code commands}, keyed {@code job/worker}: the orchestrator's allocation, or (null) its removal. */
    public void command(final String key, final ResourceCommand command) {
        if (command == null) {
            removeByKey(commands, key);
            return;
        }
        commands.computeIfAbsent(command.getJob(), job -> new TreeMap<>()).put(command.getWorker(), command);
    }

    /** A record of {@code dead-letters}, keyed by the key of the record set aside. */
    public void deadLetter(final String key, final DeadLetter letter) {
        if (letter == null) {
            return;
        }
        final Matcher example = EXAMPLE_OF_JOB.matcher(letter.getError());
        final String job;
        if (example.find()) {
            job = example.group(1);
        } else if (key == null) {
            job = "";
        } else {
            job = key.indexOf('/') < 0 ? key : key.substring(0, key.indexOf('/'));
        }
        deadLetters
                .computeIfAbsent(job, j -> new TreeMap<>())
                .merge(letter.getReason().name(), 1L, Long::sum);
    }

    private static <V> void removeByKey(final Map<String, SortedMap<String, V>> byJob, final String key) {
        final int slash = key == null ? -1 : key.indexOf('/');
        if (slash > 0) {
            final SortedMap<String, V> held = byJob.get(key.substring(0, slash));
            if (held != null) {
                held.remove(key.substring(slash + 1));
            }
        }
    }

    /** The names of the jobs on {@code jobs} (deleted ones left out), in name order. */
    public List<String> jobs() {
        return List.copyOf(specs.keySet());
    }

    /** Every job's status as of {@code now} (which decides which workers are still live), in name order. */
    public List<JobStatus> statuses(final Instant now) {
        final List<JobStatus> all = new ArrayList<>();
        for (final String job : specs.keySet()) {
            all.add(status(job, now).orElseThrow());
        }
        return all;
    }

    /** Job {@code job}'s status as of {@code now}; empty when {@code jobs} does not hold it. */
    public Optional<JobStatus> status(final String job, final Instant now) {
        final JobSpec spec = specs.get(job);
        if (spec == null) {
            return Optional.empty();
        }
        final Map<Integer, ShardProgress> held = shards.getOrDefault(job, Map.of());
        final List<Long> versions = new ArrayList<>();
        long minClock = Long.MAX_VALUE;
        boolean finished = !held.isEmpty();
        for (int s = 0; s < spec.getShards(); s++) {
            final ShardProgress shard = held.get(s);
            finished &= shard != null && shard.finalVersion();
            versions.add(shard == null ? -1 : shard.version());
            minClock = shard == null || minClock < 0 ? -1 : Math.min(minClock, shard.minClock());
        }
        final ShardProgress first = held.get(0);
        final List<JobStatus.Member> workers = members(spec, now);
        final long totalClocks =
                spec.getLearningRateSchedule() == LearningRateScheduleKind.COSINE && spec.getDecayClocks() > 0
                        ? spec.getDecayClocks()
                        : -1;
        return Optional.of(new JobStatus(
                job,
                spec.getModel(),
                spec.getDataset(),
                spec.getExpectedWorkers(),
                spec.getSyncMode().name(),
                spec.getShards(),
                finished ? JobStatus.State.DONE : state(held.isEmpty(), minClock, totalClocks, workers),
                List.copyOf(versions),
                versions.isEmpty() ? -1 : minClock,
                totalClocks,
                first == null ? Collections.emptySortedMap() : new TreeMap<>(first.clocks()),
                workers,
                plan(job, first),
                new TreeMap<>(deadLetters.getOrDefault(job, Collections.emptySortedMap())),
                first == null ? -1 : first.exampleOffsets(),
                first == null ? null : first.updatedAt()));
    }

    /**
     * What the job is doing when not every shard's newest record carries the final-version mark (which makes it
     * {@code DONE}): {@code DONE} also once a cosine spec's clocks are all applied, the only spec that tells its end.
     */
    static JobStatus.State state(
            final boolean noModel, final long minClock, final long totalClocks, final List<JobStatus.Member> workers) {
        if (noModel) {
            return JobStatus.State.NO_MODEL;
        }
        if (totalClocks >= 0 && minClock >= totalClocks) {
            return JobStatus.State.DONE;
        }
        return workers.stream().anyMatch(JobStatus.Member::live) ? JobStatus.State.TRAINING : JobStatus.State.IDLE;
    }

    private List<JobStatus.Member> members(final JobSpec spec, final Instant now) {
        final List<JobStatus.Member> workers = new ArrayList<>();
        members.getOrDefault(spec.getJob(), Collections.emptySortedMap()).forEach((name, status) -> {
            final boolean live = status.getState() != WorkerState.LEFT
                    && !status.getTimestamp()
                            .plusMillis(spec.getSessionTimeoutMs())
                            .isBefore(now);
            workers.add(new JobStatus.Member(
                    name, status.getState().name(), status.getClock(), status.getTimestamp(), live));
        });
        return List.copyOf(workers);
    }

    private JobStatus.Plan plan(final String job, final ShardProgress first) {
        final SortedMap<String, ResourceCommand> allocations = commands.getOrDefault(job, Collections.emptySortedMap());
        final long epoch = allocations.values().stream()
                .mapToLong(ResourceCommand::getEpoch)
                .max()
                .orElse(-1);
        if (epoch < 0) {
            return null;
        }
        final SortedMap<String, Double> shares = new TreeMap<>();
        final SortedMap<String, Integer> threads = new TreeMap<>();
        String reason = "";
        for (final ResourceCommand command : allocations.values()) {
            if (command.getEpoch() == epoch) {
                shares.put(command.getWorker(), command.getBatchShare());
                threads.put(command.getWorker(), command.getThreads());
                reason = command.getReason();
            }
        }
        final List<String> stragglers = new ArrayList<>();
        final Matcher straggler = STRAGGLER.matcher(reason);
        while (straggler.find()) {
            stragglers.add(straggler.group(1));
        }
        return new JobStatus.Plan(
                epoch, reason, List.copyOf(stragglers), shares, threads, first == null ? -1 : first.planEpoch());
    }
}
