package io.paramhub.cli.chaos;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.ModelShard;
import io.paramhub.topology.client.TopicReader;
import io.paramhub.topology.sync.SyncPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * The SSP job kept its staleness bound, on the recorded {@code gradients}, {@code model} and {@code dead-letters}
 * topics. Every gradient of the job on {@code gradients} (read_committed, as the aggregators read it) that was not
 * dead-lettered was applied: at the first committed version V of its shard whose {@code clocks} include its clock,
 * and then it must have been computed on a version no more than the aggregator's bound behind the one it was applied
 * to ({@code V - 1 - baseVersion <= SyncPolicy.versionBound()}), and its worker must have started its clock on a
 * model whose {@code minClock} allowed it (some record of its base version, committed or not, as workers read them,
 * with {@code minClock >= clock - staleness}). Each shard's last version counts its applied gradients, one version
 * each. A gradient dead-lettered {@code STALE} was refused as too stale: that is the bound at work, counted.
 */
final class SspStaleness implements Invariant {

    /** One gradient of the job as recorded: its shard, worker, clock, base version, and where it lies. */
    record Gradient(int shard, String worker, long clock, long baseVersion, int partition, long offset) {

        String place() {
            return partition + "@" + offset;
        }
    }

    /** One version record of a shard: its version, {@code minClock} and each worker's clocks included. */
    record Version(int shard, long version, long minClock, Map<String, Long> clocks) {}

    /** What the check found: problems (empty when it holds), gradients applied and those refused as stale. */
    record Finding(List<String> problems, int applied, int stale, long maxLag, long maxAhead) {}

    private final String job;

    SspStaleness(final String job) {
        this.job = job;
    }

    @Override
    public String name() {
        return "ssp-staleness[" + job + "]";
    }

    @Override
    public Verdict check(final ChaosRecord run) {
        final ChaosJob ssp = run.job(job).job();
        final SyncPolicy policy = SyncPolicy.of(ssp.spec());
        final List<Gradient> gradients = new ArrayList<>();
        final Map<String, DeadLetterReason> letters = new HashMap<>();
        final List<Version> committed;
        final List<Version> seen;
        try {
            try (TopicReader<String, GradientShard> reader =
                    new TopicReader<>(run.topics().gradients(), run.client())) {
                reader.catchUp(Duration.ofSeconds(60), record -> {
                    final GradientShard value = record.value();
                    if (value != null && job.equals(value.getJob())) {
                        gradients.add(new Gradient(
                                value.getShard(),
                                value.getWorker(),
                                value.getClock(),
                                value.getBaseVersion(),
                                record.partition(),
                                record.offset()));
                    }
                });
            }
            try (TopicReader<String, DeadLetter> reader =
                    new TopicReader<>(run.topics().deadLetters(), run.client())) {
                reader.catchUp(Duration.ofSeconds(60), record -> {
                    final DeadLetter letter = record.value();
                    if (letter != null && run.topics().gradients().name().equals(letter.getSourceTopic())) {
                        letters.put(letter.getPartition() + "@" + letter.getOffset(), letter.getReason());
                    }
                });
            }
            committed = versions(run, run.client());
            final Properties uncommitted = new Properties();
            uncommitted.putAll(run.client());
            uncommitted.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
            seen = versions(run, uncommitted);
        } catch (final RuntimeException e) {
            return Verdict.fail(name(), "could not read the recorded topics: " + e.getMessage());
        }
        final Finding finding = judge(gradients, letters, committed, seen, policy.versionBound(), policy.clockBound());
        final String detail = finding.applied() + " gradients applied, at most " + finding.maxLag()
                + " versions behind (bound " + policy.versionBound() + "), started at most " + finding.maxAhead()
                + " clocks past minClock (staleness " + policy.clockBound() + "); " + finding.stale()
                + " refused as too stale";
        return finding.problems().isEmpty()
                ? Verdict.pass(name(), detail)
                : Verdict.fail(
                        name(),
                        finding.problems().size() + " problems: "
                                + String.join(
                                        "; ",
                                        finding.problems()
                                                .subList(
                                                        0,
                                                        Math.min(
                                                                5,
                                                                finding.problems()
                                                                        .size())))
                                + "; " + detail);
    }

    private List<Version> versions(final ChaosRecord run, final Properties client) {
        final List<Version> versions = new ArrayList<>();
        try (TopicReader<String, ModelShard> reader =
                new TopicReader<>(run.topics().model(), client)) {
            reader.catchUp(Duration.ofSeconds(60), record -> {
                final ModelShard value = record.value();
                if (value != null && job.equals(value.getJob())) {
                    final Map<String, Long> clocks = new TreeMap<>();
                    value.getClocks().forEach((worker, clock) -> clocks.put(worker.toString(), clock));
                    versions.add(new Version(value.getShard(), value.getVersion(), value.getMinClock(), clocks));
                }
            });
        }
        return versions;
    }

    /**
     * Judges the recorded gradients of one SSP job against its versions.
     *
     * @param gradients     the job's gradients in partition order
     * @param letters       the dead letters of {@code gradients} records, by place ({@code partition@offset})
     * @param committed     the job's committed version records, in order
     * @param seen          every version record, aborted ones included, as the workers read them
     * @param versionBound  versions a gradient's base may lag the version it is applied to
     * @param clockBound    clocks a worker may start past the model's {@code minClock} (the staleness)
     */
    static Finding judge(
            final List<Gradient> gradients,
            final Map<String, DeadLetterReason> letters,
            final List<Version> committed,
            final List<Version> seen,
            final long versionBound,
            final long clockBound) {
        final List<String> problems = new ArrayList<>();
        final Map<Integer, Long> appliedPerShard = new TreeMap<>();
        int stale = 0;
        long maxLag = 0;
        long maxAhead = Long.MIN_VALUE;
        for (final Gradient gradient : gradients) {
            final DeadLetterReason letter = letters.get(gradient.place());
            if (letter != null) {
                stale += letter == DeadLetterReason.STALE ? 1 : 0;
                continue;
            }
            final String what = gradient.worker() + " clock " + gradient.clock() + " shard " + gradient.shard() + " ("
                    + gradient.place() + ")";
            final Version applied = committed.stream()
                    .filter(version -> version.shard() == gradient.shard()
                            && version.clocks().getOrDefault(gradient.worker(), 0L) > gradient.clock())
                    .findFirst()
                    .orElse(null);
            if (applied == null) {
                problems.add(what + ": in no committed version, and not dead-lettered");
                continue;
            }
            appliedPerShard.merge(gradient.shard(), 1L, Long::sum);
            final long lag = applied.version() - 1 - gradient.baseVersion();
            maxLag = Math.max(maxLag, lag);
            if (lag > versionBound) {
                problems.add(what + ": computed on version " + gradient.baseVersion() + ", applied to "
                        + (applied.version() - 1) + ", " + lag + " behind, bound " + versionBound);
            }
            final long minClock = seen.stream()
                    .filter(version ->
                            version.shard() == gradient.shard() && version.version() == gradient.baseVersion())
                    .mapToLong(Version::minClock)
                    .max()
                    .orElse(Long.MIN_VALUE);
            if (minClock == Long.MIN_VALUE) {
                problems.add(what + ": its base version " + gradient.baseVersion() + " was never published");
                continue;
            }
            maxAhead = Math.max(maxAhead, gradient.clock() - minClock);
            if (gradient.clock() - minClock > clockBound) {
                problems.add(what + ": started on version " + gradient.baseVersion() + " whose minClock is " + minClock
                        + ", more than " + clockBound + " clocks behind");
            }
        }
        final Map<Integer, Long> lastVersion = new TreeMap<>();
        committed.forEach(version -> lastVersion.merge(version.shard(), version.version(), Math::max));
        final Set<Integer> shards = new TreeSet<>(lastVersion.keySet());
        shards.addAll(appliedPerShard.keySet());
        for (final int shard : shards) {
            final long applied = appliedPerShard.getOrDefault(shard, 0L);
            final long last = lastVersion.getOrDefault(shard, -1L);
            if (applied != last) {
                problems.add("shard " + shard + ": " + applied + " gradients applied, last version " + last);
            }
        }
        final int appliedCount = (int)
                appliedPerShard.values().stream().mapToLong(Long::longValue).sum();
        return new Finding(problems, appliedCount, stale, maxLag, maxAhead == Long.MIN_VALUE ? 0 : maxAhead);
    }
}
