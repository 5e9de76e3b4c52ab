package io.paramhub.cli.model;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.TensorShape;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.Topic;
import io.paramhub.topology.client.TopicReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads one job's model from the {@code model} topic (read_committed, every partition from the beginning up to
 * its end offset when called) and assembles one version of the whole parameter vector from its shards: a given
 * version, or by default the newest version every shard has. Each shard's newest record of a version wins (the
 * aggregator republishes the final version with its mark). A tombstone, or a version below one already read
 * (the job submitted again), starts a shard's history over. Reads {@code jobs} only to tell an unknown job from
 * one without a model yet.
 */
public final class ModelVersions {

    private final String job;
    private final Map<Integer, Shard> shards = new HashMap<>();
    private int shardCount = -1;

    private ModelVersions(final String job) {
        this.job = job;
    }

    /** What was read of one shard: the versions on the topic, and the newest record of the wanted one. */
    private static final class Shard {
        private final TreeSet<Long> versions = new TreeSet<>();
        private ModelShard newest;
        private ModelShard wanted;
    }

    /**
     * Version {@code version} of {@code job} (the newest every shard has when empty), read within {@code timeout}.
     *
     * @throws IllegalArgumentException naming what is missing: an unknown job, a job without a model yet, a version
     *     not (or no longer) on the topic with those that are
     */
    public static ExportedModel read(
            final Topic<String, ModelShard> model,
            final Topic<String, JobSpec> jobs,
            final Properties client,
            final String job,
            final OptionalLong version,
            final Duration timeout) {
        ModelVersions read = scan(model, client, job, version.orElse(-1), timeout);
        if (read.shards.isEmpty()) {
            throw new IllegalArgumentException(
                    knownJob(jobs, client, job, timeout)
                            ? "job " + job + " has no model yet on " + model.name()
                                    + ": the aggregator publishes version 0 " + "when it takes the job; is it running?"
                            : "no job " + job + " on " + jobs.name() + " nor on " + model.name());
        }
        final long wanted = version.isPresent() ? version.getAsLong() : read.newestCommonVersion();
        if (!read.allAt(wanted)) {
            read = scan(model, client, job, wanted, timeout);
        }
        return read.assemble(wanted);
    }

    private static ModelVersions scan(
            final Topic<String, ModelShard> model,
            final Properties client,
            final String job,
            final long wanted,
            final Duration timeout) {
        final ModelVersions read = new ModelVersions(job);
        final String prefix = job + "/";
        try (TopicReader<String, ModelShard> reader = new TopicReader<>(model, client)) {
            reader.catchUp(timeout, record -> {
                if (record.key() == null || !record.key().startsWith(prefix)) {
                    return;
                }
                if (record.value() == null) {
                    read.shards.remove(shardOf(record.key().substring(prefix.length())));
                } else if (job.equals(record.value().getJob())) {
                    read.offer(record.value(), wanted);
                }
            });
        }
        return read;
    }

    private static int shardOf(final String suffix) {
        try {
            return Integer.parseInt(suffix);
        } catch (final NumberFormatException e) {
            return -1;
        }
    }

    private static boolean knownJob(
            final Topic<String, JobSpec> jobs, final Properties client, final String job, final Duration timeout) {
        final Map<String, Boolean> known = new HashMap<>();
        try (TopicReader<String, JobSpec> reader = new TopicReader<>(jobs, client)) {
            reader.catchUp(timeout, record -> {
                if (job.equals(record.key())) {
                    known.put(job, record.value() != null);
                }
            });
        }
        return known.getOrDefault(job, false);
    }

    private void offer(final ModelShard record, final long wanted) {
        final Shard shard = shards.computeIfAbsent(record.getShard(), key -> new Shard());
        if (!shard.versions.isEmpty() && record.getVersion() < shard.versions.last()) {
            shard.versions.clear();
            shard.wanted = null;
        }
        shard.versions.add(record.getVersion());
        shard.newest = record;
        if (record.getVersion() == wanted) {
            shard.wanted = record;
        }
        shardCount = record.getShards();
    }

    /** The newest version every shard has a record of on the topic. */
    private long newestCommonVersion() {
        requireEveryShard();
        TreeSet<Long> common = null;
        for (final Shard shard : shards.values()) {
            if (common == null) {
                common = new TreeSet<>(shard.versions);
            } else {
                common.retainAll(shard.versions);
            }
        }
        if (common == null || common.isEmpty()) {
            throw new IllegalArgumentException("the shards of job " + job + " have no version in common on the "
                    + "topic (compacted away?): " + versionsByShard());
        }
        return common.last();
    }

    /** Whether every shard's newest record is of {@code version}, so that one read suffices. */
    private boolean allAt(final long version) {
        return shards.size() == shardCount
                && shards.values().stream()
                        .allMatch(shard -> shard.newest.getVersion() == version || shard.wanted != null);
    }

    private ExportedModel assemble(final long version) {
        requireEveryShard();
        final List<ModelShard> records = new ArrayList<>();
        for (final Shard shard : shards.values()) {
            final ModelShard record = shard.newest.getVersion() == version ? shard.newest : shard.wanted;
            if (record == null) {
                throw new IllegalArgumentException("version " + version + " of job " + job + " is not (or no longer, "
                        + "after compaction) on the topic; the versions there: " + versionsByShard());
            }
            records.add(record);
        }
        final ModelShard first = records.get(0);
        final List<TensorShape> tensors = first.getTensors();
        long total = 0;
        for (final ModelShard record : records) {
            total = Math.max(
                    total,
                    record.getFirstParameter() + (long) record.getValues().remaining() / Float.BYTES);
        }
        final float[] parameters = new float[Math.toIntExact(total)];
        boolean marked = true;
        for (final ModelShard record : records) {
            final float[] values = FloatPacking.unpack(record.getValues());
            System.arraycopy(values, 0, parameters, record.getFirstParameter(), values.length);
            marked &= record.getFinalVersion();
        }
        return new ExportedModel(
                job,
                version,
                first.getModel(),
                marked,
                tensors.isEmpty() ? List.of(new TensorShape("parameters", List.of(parameters.length))) : tensors,
                parameters);
    }

    private void requireEveryShard() {
        if (shards.size() != shardCount
                || shards.keySet().stream().anyMatch(shard -> shard < 0 || shard >= shardCount)) {
            throw new IllegalArgumentException("job " + job + " has " + shardCount + " shards but the topic holds "
                    + "records of shards " + new TreeSet<>(shards.keySet()) + " only");
        }
    }

    /** Per shard, its versions on the topic, as ranges where they are consecutive. */
    private String versionsByShard() {
        final StringBuilder text = new StringBuilder();
        new TreeMap<>(shards)
                .forEach((index, shard) -> text.append(text.length() == 0 ? "" : "; ")
                        .append("shard ")
                        .append(index)
                        .append(": ")
                        .append(ranges(shard.versions)));
        return text.toString();
    }

    static String ranges(final TreeSet<Long> versions) {
        final StringBuilder text = new StringBuilder();
        Long start = null;
        Long previous = null;
        for (final long version : versions) {
            if (previous != null && version == previous + 1) {
                previous = version;
                continue;
            }
            appendRange(text, start, previous);
            start = version;
            previous = version;
        }
        appendRange(text, start, previous);
        return text.toString();
    }

    private static void appendRange(final StringBuilder text, final Long start, final Long end) {
        if (start == null) {
            return;
        }
        text.append(text.length() == 0 ? "" : ", ").append(start.equals(end) ? "" + start : start + "-" + end);
    }
}
