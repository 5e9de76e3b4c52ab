package io.paramhub.topology.client;

import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The newest version seen of each shard of one job's model, assembled into one vector on demand; for
 * pipelined BSP it also keeps each shard's few versions before the newest, so that a worker computes a
 * clock on exactly the version the clock is pinned to ({@link #at}). A view of some shards only (a pipeline
 * stage's, {@link #ModelView(String, int, int, Collection)}) keeps, waits for and assembles those alone.
 *
 * <p>A view that knows its job's bounds ({@link #bounded}) keeps no record past them (a forged version, clock or
 * shard count), and hands each it refuses, with why, to its listener.
 */
public final class ModelView {

    private final String job;
    /** Per shard, the versions kept, oldest first, the newest last. */
    private final List<List<ModelShard>> held;

    private final int versionsKept;
    /** Which shards this view holds; all of them when null. */
    private final boolean[] wanted;
    /** What a record of the job can say; nothing is checked when null. */
    private ModelBounds bounds;

    private BiConsumer<ModelShard, String> refused = (shard, problem) -> {};

    public ModelView(final String job, final int shardCount) {
        this(job, shardCount, 1);
    }

    /** A view keeping the newest {@code versionsKept} versions of each shard (1 or more). */
    public ModelView(final String job, final int shardCount, final int versionsKept) {
        this(job, shardCount, versionsKept, null);
    }

    /**
     * A view of the shards {@code shards} of the job's {@code shardCount} alone (all of them when null), keeping
     * the newest {@code versionsKept} versions of each: records of other shards are passed over.
     */
    public ModelView(final String job, final int shardCount, final int versionsKept, final Collection<Integer> shards) {
        if (versionsKept < 1) {
            throw new IllegalArgumentException("must keep at least one version, not " + versionsKept);
        }
        this.job = job;
        this.versionsKept = versionsKept;
        this.held = new ArrayList<>(shardCount);
        for (int s = 0; s < shardCount; s++) {
            held.add(new ArrayList<>(versionsKept + 1));
        }
        if (shards == null) {
            this.wanted = null;
        } else {
            this.wanted = new boolean[shardCount];
            for (final int shard : shards) {
                if (shard < 0 || shard >= shardCount) {
                    throw new IllegalArgumentException("shard " + shard + " out of range [0, " + shardCount + ")");
                }
                wanted[shard] = true;
            }
        }
    }

    /**
     * This view, from now on refusing every record past {@code jobBounds} ({@link ModelBounds#problem}) and handing
     * it to {@code refusals} with the problem.
     */
    public ModelView bounded(final ModelBounds jobBounds, final BiConsumer<ModelShard, String> refusals) {
        this.bounds = jobBounds;
        this.refused = refusals;
        return this;
    }

    private boolean wanted(final int shard) {
        return wanted == null || wanted[shard];
    }

    /**
     * Keeps {@code shard} if it belongs to this job, is within its bounds and is newer than what is held (a higher
     * version, or the same version with a higher {@code minClock}, as when a silent worker leaves the live set);
     * says whether it was kept.
     */
    public boolean offer(final ModelShard shard) {
        if (shard == null
                || !job.equals(shard.getJob())
                || shard.getShard() < 0
                || shard.getShard() >= held.size()
                || !wanted(shard.getShard())) {
            return false;
        }
        final List<ModelShard> versions = held.get(shard.getShard());
        final ModelShard newest = versions.isEmpty() ? null : versions.get(versions.size() - 1);
        final String problem = bounds == null ? null : bounds.problem(shard, newest);
        if (problem != null) {
            refused.accept(shard, problem);
            return false;
        }
        if (newest != null
                && (newest.getVersion() > shard.getVersion()
                        || newest.getVersion() == shard.getVersion() && newest.getMinClock() >= shard.getMinClock())) {
            return false;
        }
        if (newest != null && newest.getVersion() == shard.getVersion()) {
            versions.set(versions.size() - 1, shard);
        } else {
            versions.add(shard);
            if (versions.size() > versionsKept) {
                versions.remove(0);
            }
        }
        return true;
    }

    /**
     * The model at {@code version}: each shard's record of that version, or, where the shard no longer
     * holds it (a worker that joined late never saw it), the oldest the shard holds. Every shard must be
     * present.
     */
    public ModelView at(final long version) {
        final ModelView pinned = new ModelView(job, held.size(), 1, wantedShards());
        for (int s = 0; s < held.size(); s++) {
            final List<ModelShard> versions = held.get(s);
            if (!wanted(s)) {
                continue;
            }
            if (versions.isEmpty()) {
                throw new IllegalStateException("model of job " + job + " is incomplete");
            }
            ModelShard chosen = versions.get(0);
            for (final ModelShard candidate : versions) {
                if (candidate.getVersion() == version) {
                    chosen = candidate;
                }
            }
            pinned.offer(chosen);
        }
        return pinned;
    }

    private List<Integer> wantedShards() {
        if (wanted == null) {
            return null;
        }
        final List<Integer> shards = new ArrayList<>();
        for (int s = 0; s < wanted.length; s++) {
            if (wanted[s]) {
                shards.add(s);
            }
        }
        return shards;
    }

    private ModelShard newest(final int shard) {
        final List<ModelShard> versions = held.get(shard);
        return versions.isEmpty() ? null : versions.get(versions.size() - 1);
    }

    public boolean complete() {
        for (int s = 0; s < held.size(); s++) {
            final ModelShard shard = newest(s);
            if (!wanted(s)) {
                continue;
            }
            if (shard == null) {
                return false;
            }
        }
        return true;
    }

    /** Smallest {@code minClock} over the shards, -1 until every shard has been seen. */
    public long minClock() {
        long min = Long.MAX_VALUE;
        for (int s = 0; s < held.size(); s++) {
            final ModelShard shard = newest(s);
            if (!wanted(s)) {
                continue;
            }
            if (shard == null) {
                return -1;
            }
            min = Math.min(min, shard.getMinClock());
        }
        return min;
    }

    /** Smallest version over the shards, -1 until every shard has been seen. */
    public long minVersion() {
        long min = Long.MAX_VALUE;
        for (int s = 0; s < held.size(); s++) {
            final ModelShard shard = newest(s);
            if (!wanted(s)) {
                continue;
            }
            if (shard == null) {
                return -1;
            }
            min = Math.min(min, shard.getVersion());
        }
        return min;
    }

    /** How many clocks of {@code worker} every shard includes, -1 until every shard has been seen. */
    public long appliedClocks(final String worker) {
        long min = Long.MAX_VALUE;
        for (int s = 0; s < held.size(); s++) {
            final ModelShard shard = newest(s);
            if (!wanted(s)) {
                continue;
            }
            if (shard == null) {
                return -1;
            }
            min = Math.min(min, shard.getClocks().getOrDefault(worker, 0L));
        }
        return min;
    }

    /** The orchestrator's batch shares carried by shard 0's newest version; empty when there are none. */
    public Map<String, Double> planShares() {
        return newest(0) == null ? Map.of() : newest(0).getShares();
    }

    /** The orchestrator's compute threads per worker carried by shard 0's newest version; empty when there are none. */
    public Map<String, Integer> planThreads() {
        return newest(0) == null ? Map.of() : newest(0).getThreads();
    }

    /** Version of the plan {@link #planShares()} comes from (the shard's {@code planEpoch}), -1 when there is none. */
    public long planVersion() {
        return newest(0) == null ? -1 : newest(0).getPlanEpoch();
    }

    /** Version of each shard, -1 where none has been seen. */
    public long[] versions() {
        final long[] versions = new long[held.size()];
        for (int s = 0; s < held.size(); s++) {
            versions[s] = newest(s) == null ? -1 : newest(s).getVersion();
        }
        return versions;
    }

    /** The full parameter vector of {@code parameters} values; every shard must be present. */
    public float[] assemble(final int parameters) {
        return assembleInto(new float[parameters]);
    }

    /**
     * The full parameter vector written into {@code full} (a worker reuses one array from clock to clock), its
     * values outside this view's shards left as they are; every shard of the view must be present.
     */
    public float[] assembleInto(final float[] full) {
        for (int s = 0; s < held.size(); s++) {
            final ModelShard shard = newest(s);
            if (!wanted(s)) {
                continue;
            }
            if (shard == null) {
                throw new IllegalStateException("model of job " + job + " is incomplete");
            }
            final int first = shard.getFirstParameter();
            final int count = FloatPacking.count(shard.getValues());
            if (first < 0 || count < 0 || first + count > full.length) {
                throw new IllegalStateException("shard " + s + " of job " + job + " holds parameters [" + first + ", "
                        + (first + count) + "), outside the model's " + full.length);
            }
            FloatPacking.unpackInto(shard.getValues(), full, first);
        }
        return full;
    }
}
