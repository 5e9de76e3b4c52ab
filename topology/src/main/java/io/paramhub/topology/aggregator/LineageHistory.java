package io.paramhub.topology.aggregator;

import io.paramhub.avro.OffsetRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * The lineage ({@link ExampleLineage}) of each shard-0 version an aggregator instance published, for the HTTP
 * endpoint {@code GET /jobs/{job}/lineage}: in memory only, per job, for at least the newest
 * {@code versionsKept} versions since the shard started or was restored on this instance. Compact, since a
 * lineage only grows: per version the ranges it added (three longs a range), and every
 * {@value #BLOCK_VERSIONS} versions the whole lineage, from which a version is rebuilt. Shard tasks write it
 * (any stream thread), the HTTP server reads it; it reads and writes no topic.
 */
public final class LineageHistory {

    /** The versions kept per job when none are given. */
    public static final int DEFAULT_VERSIONS = 100_000;

    /** Streams setting of the aggregator: the versions of each job kept, at least (default {@value #DEFAULT_VERSIONS}). */
    public static final String VERSIONS_CONFIG = "paramhub.aggregator.lineage.versions";

    /** Versions per block: one whole lineage, then the ranges each version added. */
    static final int BLOCK_VERSIONS = 1024;

    /** What {@link #at} found. */
    public sealed interface Lookup {

        /** The lineage of {@code version}. */
        record Found(long version, ExampleLineage lineage) implements Lookup {}

        /** The job is kept, from version {@code oldest} to {@code latest}, but not the version asked for. */
        record NotKept(long oldest, long latest) implements Lookup {}

        /** This instance keeps no history of the job: its shard 0 is elsewhere, or there is no such job. */
        record Unknown() implements Lookup {}
    }

    private final int versionsKept;
    private final int blockVersions;
    private final Map<String, JobHistory> jobs = new HashMap<>();

    /** A history of {@link #DEFAULT_VERSIONS} versions per job. */
    public LineageHistory() {
        this(DEFAULT_VERSIONS);
    }

    /** A history of at least {@code versionsKept} versions per job (1 or more). */
    public LineageHistory(final int versionsKept) {
        this(versionsKept, BLOCK_VERSIONS);
    }

    LineageHistory(final int versionsKept, final int blockVersions) {
        if (versionsKept < 1 || blockVersions < 1) {
            throw new IllegalArgumentException("a lineage history keeps 1 or more versions, not " + versionsKept
                    + " in blocks of " + blockVersions);
        }
        this.versionsKept = versionsKept;
        this.blockVersions = Math.min(blockVersions, versionsKept);
    }

    /**
     * A history of {@link #VERSIONS_CONFIG} versions from the app's settings, or of its default. Throws Kafka's
     * {@code ConfigException} naming the setting when it is not a whole number of 1 or more.
     */
    public static LineageHistory of(final Map<?, ?> appConfigs) {
        final Object value = appConfigs.get(VERSIONS_CONFIG);
        if (value == null) {
            return new LineageHistory();
        }
        final int versions;
        try {
            versions = Integer.parseInt(value.toString().trim());
        } catch (final NumberFormatException e) {
            throw new ConfigException(VERSIONS_CONFIG, value, "must be a whole number of versions");
        }
        if (versions < 1) {
            throw new ConfigException(VERSIONS_CONFIG, value, "must be at least 1");
        }
        return new LineageHistory(versions);
    }

    /**
     * Shard 0 of {@code job}, held by {@code owner} (a shard task's engine), published {@code version}, whose
     * lineage is {@code lineage} after adding {@code added}. The next version is kept as a change; any other
     * (a restarted or resubmitted job, a gap) starts the job's history again at {@code version}.
     */
    synchronized void published(
            final String job,
            final Object owner,
            final long version,
            final List<OffsetRange> added,
            final ExampleLineage lineage) {
        final JobHistory history = jobs.get(job);
        if (history == null || history.owner != owner || !history.follows(version, added)) {
            restart(job, owner, version, lineage);
            return;
        }
        if (version == history.latest()) {
            return;
        }
        history.append(version, added, lineage);
        history.trim(versionsKept);
    }

    /** The history of {@code job} starts again at {@code version} (a shard restored on this instance). */
    synchronized void restart(final String job, final Object owner, final long version, final ExampleLineage lineage) {
        final JobHistory history = new JobHistory(owner, blockVersions);
        history.blocks.add(new Block(version, lineage.copy(), blockVersions));
        jobs.put(job, history);
    }

    /** Forgets {@code job} (deleted). */
    synchronized void forget(final String job) {
        jobs.remove(job);
    }

    /** Forgets the jobs {@code owner} holds (its task closed: the shards may move to another instance). */
    synchronized void release(final Object owner) {
        jobs.values().removeIf(history -> history.owner == owner);
    }

    /** The lineage of {@code version} of {@code job} (its latest when {@code version} is negative). */
    public synchronized Lookup at(final String job, final long version) {
        final JobHistory history = jobs.get(job);
        if (history == null) {
            return new Lookup.Unknown();
        }
        final long latest = history.latest();
        final long wanted = version < 0 ? latest : version;
        final long oldest = history.blocks.get(0).first;
        if (wanted < oldest || wanted > latest) {
            return new Lookup.NotKept(oldest, latest);
        }
        final Block block = history.blocks.get((int) ((wanted - oldest) / blockVersions));
        return new Lookup.Found(wanted, block.lineageAt(wanted));
    }

    /** One job's versions, in blocks of consecutive versions, oldest first. */
    private static final class JobHistory {
        private final Object owner;
        private final int blockVersions;
        private final List<Block> blocks = new ArrayList<>();

        JobHistory(final Object owner, final int blockVersions) {
            this.owner = owner;
            this.blockVersions = blockVersions;
        }

        long latest() {
            final Block last = blocks.get(blocks.size() - 1);
            return last.first + last.changes;
        }

        /** Whether {@code version} is the next one, or the latest again with nothing added (a republished version). */
        boolean follows(final long version, final List<OffsetRange> added) {
            return version == latest() + 1 || (version == latest() && added.isEmpty());
        }

        void append(final long version, final List<OffsetRange> added, final ExampleLineage lineage) {
            final Block last = blocks.get(blocks.size() - 1);
            if (last.changes + 1 < blockVersions) {
                last.add(added);
            } else {
                last.seal();
                blocks.add(new Block(version, lineage.copy(), blockVersions));
            }
        }

        /** Drops the oldest blocks while the others still hold {@code versionsKept} versions. */
        void trim(final int versionsKept) {
            while (blocks.size() > 1 && latest() - blocks.get(1).first + 1 >= versionsKept) {
                blocks.remove(0);
            }
        }
    }

    /**
     * Versions {@code first} to {@code first + changes}: the whole lineage of {@code first}, then for each later
     * version the ranges it added, as (partition, start, end) triples in {@code ranges}; {@code ends[i]} is where
     * those of version {@code first + 1 + i} end.
     */
    private static final class Block {
        private static final long[] NONE = new long[0];

        private final long first;
        private final ExampleLineage start;
        private final int[] ends;
        private long[] ranges = NONE;
        private int changes;

        Block(final long first, final ExampleLineage start, final int blockVersions) {
            this.first = first;
            this.start = start;
            this.ends = new int[blockVersions - 1];
        }

        void add(final List<OffsetRange> added) {
            final int from = changes == 0 ? 0 : ends[changes - 1];
            if (from + 3 * added.size() > ranges.length) {
                ranges = Arrays.copyOf(ranges, Math.max(2 * ranges.length, from + 3 * added.size()));
            }
            int at = from;
            for (final OffsetRange range : added) {
                ranges[at++] = range.getPartition();
                ranges[at++] = range.getStart();
                ranges[at++] = range.getEnd();
            }
            ends[changes++] = at;
        }

        /** Full: its ranges take no more room than they need. */
        void seal() {
            ranges = Arrays.copyOf(ranges, changes == 0 ? 0 : ends[changes - 1]);
        }

        ExampleLineage lineageAt(final long version) {
            final ExampleLineage lineage = start.copy();
            final int changesUpTo = (int) (version - first);
            final int end = changesUpTo == 0 ? 0 : ends[changesUpTo - 1];
            for (int at = 0; at < end; at += 3) {
                lineage.add((int) ranges[at], ranges[at + 1], ranges[at + 2]);
            }
            return lineage;
        }
    }
}
