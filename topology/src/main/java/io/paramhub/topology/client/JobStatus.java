package io.paramhub.topology.client;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;

/**
 * One job as ParamHub's topics tell it, summarised by {@link JobsDigest}: its spec's headline, its model's
 * progress ({@code model}), its workers ({@code membership}), the orchestrator's last plan ({@code commands}) and
 * its dead letters ({@code dead-letters}). What {@code paramhub jobs list} and {@code jobs status} print.
 *
 * @param job           the job's name
 * @param model         model kind of the spec
 * @param dataset       data set (or data topic) of the spec
 * @param workers       expected workers of the spec
 * @param syncMode      BSP, SSP or ASP
 * @param shards        shard count of the spec
 * @param state         what the job is doing, as far as the topics tell
 * @param versions      per shard, the newest version on {@code model}; -1 where the shard has none yet
 * @param minClock      the smallest {@code minClock} over the shards: every live worker has finished the clocks
 *                      before it; -1 until every shard has a version
 * @param totalClocks   the clocks the job runs for when the spec tells (a cosine schedule's {@code decayClocks}),
 *                      -1 when it does not
 * @param clocks        per worker, the clocks shard 0's newest version includes
 * @param members       the job's workers on {@code membership}, by name
 * @param plan          the orchestrator's newest plan for the job, null before any
 * @param deadLetters   per reason, the job's records set aside on {@code dead-letters}
 * @param exampleOffsets a topic job's data-topic offsets its model has trained through (shard 0's lineage; the
 *                      ranges may span transaction markers, so an upper bound on the examples), -1 otherwise
 * @param updatedAt     when shard 0's newest version was written, null before any
 */
public record JobStatus(
        String job,
        String model,
        String dataset,
        int workers,
        String syncMode,
        int shards,
        State state,
        List<Long> versions,
        long minClock,
        long totalClocks,
        SortedMap<String, Long> clocks,
        List<Member> members,
        Plan plan,
        SortedMap<String, Long> deadLetters,
        long exampleOffsets,
        Instant updatedAt) {

    /** What a job is doing. */
    public enum State {
        /** Submitted, but no shard has a version on {@code model} yet (no aggregator has taken it). */
        NO_MODEL,
        /** A model and at least one live worker. */
        TRAINING,
        /** Every clock the job runs for is in the model. */
        DONE,
        /** A model but no live worker: not started, stopped, or finished where the spec does not tell its end. */
        IDLE;

        /** The state as printed: {@code no model yet}, {@code training}, {@code done}, {@code idle}. */
        public String label() {
            return this == NO_MODEL ? "no model yet" : name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A worker's newest record on {@code membership}.
     *
     * @param worker   its id
     * @param state    JOINED, HEARTBEAT or LEFT
     * @param clock    the clock it announced
     * @param lastSeen the record's timestamp
     * @param live     not LEFT and heard from within the job's session timeout
     */
    public record Member(String worker, String state, long clock, Instant lastSeen, boolean live) {}

    /**
     * The orchestrator's newest plan for a job: its {@code ResourceCommand}s of the highest epoch.
     *
     * @param epoch      the plan's version
     * @param reason     why it was issued (names the stragglers)
     * @param stragglers the workers the plan found stragglers
     * @param shares     per worker, its batch share
     * @param threads    per worker, its compute threads
     * @param inForce    the plan version shard 0's newest model version applies, -1 for none
     */
    public record Plan(
            long epoch,
            String reason,
            List<String> stragglers,
            SortedMap<String, Double> shares,
            SortedMap<String, Integer> threads,
            long inForce) {}

    /** The job's model version: the smallest over its shards, -1 until every shard has one. */
    public long version() {
        long min = Long.MAX_VALUE;
        for (final long version : versions) {
            min = Math.min(min, version);
        }
        return versions.isEmpty() ? -1 : min;
    }

    /** Whether the shards' versions differ (a round in flight, or a shard behind). */
    public boolean versionsDiffer() {
        return versions.stream().distinct().count() > 1;
    }

    /** The live workers' names. */
    public List<String> liveWorkers() {
        return members.stream().filter(Member::live).map(Member::worker).toList();
    }

    /** The dead letters, all reasons together. */
    public long deadLetterCount() {
        return deadLetters.values().stream().mapToLong(Long::longValue).sum();
    }
}
