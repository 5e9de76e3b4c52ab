package io.paramhub.cli.chaos;

import io.paramhub.avro.ModelShard;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.client.TopicReader;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Every shard of a job committed versions 0..N on {@code model} (read_committed), each once, in order: no version
 * lost, none published twice by an aggregator that was killed, frozen or fenced. N is the job's clocks for a BSP or
 * staged job; for the SSP job, whose versions are one an applied gradient, the version its shard marked final
 * ({@link SspStaleness} checks that it counts the gradients applied). An SSP shard publishes its current version
 * again when its {@code minClock} moves: such a repeat must carry the same parameters, byte for byte. The final
 * version published again with the job's end marked does not count as a version of its own, and the hostile
 * tenant's forged versions (which the workers set aside) are none of the aggregators'.
 */
final class ContiguousVersions implements Invariant {

    private final String job;

    ContiguousVersions(final String job) {
        this.job = job;
    }

    @Override
    public String name() {
        return "shard-versions-contiguous[" + job + "]";
    }

    @Override
    public Verdict check(final ChaosRecord run) {
        final ChaosJob chaosJob = run.job(job).job();
        final boolean repeats = chaosJob.kind() == ChaosJob.Kind.SSP;
        final Set<String> forged = run.forged().stream()
                .filter(sent -> sent.topic().equals(run.topics().model().name()))
                .map(sent -> sent.partition() + "@" + sent.offset())
                .collect(Collectors.toSet());
        final Map<String, List<ModelShard>> versions = new TreeMap<>();
        for (int shard = 0; shard < chaosJob.spec().getShards(); shard++) {
            versions.put(ShardKeys.shard(job, shard), new ArrayList<>());
        }
        try (TopicReader<String, ModelShard> reader =
                new TopicReader<>(run.topics().model(), run.client())) {
            reader.catchUp(Duration.ofSeconds(60), record -> {
                final List<ModelShard> shard = versions.get(record.key());
                if (shard != null
                        && record.value() != null
                        && !forged.contains(record.partition() + "@" + record.offset())) {
                    shard.add(record.value());
                }
            });
        } catch (final RuntimeException e) {
            return Verdict.fail(name(), "could not read " + run.topics().model().name() + ": " + e.getMessage());
        }
        final List<String> problems = new ArrayList<>();
        final List<Long> lasts = new ArrayList<>();
        versions.forEach((key, records) -> {
            final String problem = problem(records, repeats, repeats ? -1 : chaosJob.clocks());
            if (problem != null) {
                problems.add(key + ": " + problem);
            } else {
                lasts.add(records.get(records.size() - 1).getVersion());
            }
        });
        return problems.isEmpty()
                ? Verdict.pass(name(), versions.size() + " shards, versions 0.." + lasts + " each once")
                : Verdict.fail(name(), String.join("; ", problems));
    }

    /**
     * What is wrong with one shard's committed records, null if nothing: versions 0, 1, ... up to {@code last}
     * ({@code -1}: up to the version marked final), a version again only as the final mark or, when
     * {@code repeats}, with the same parameters.
     */
    static String problem(final List<ModelShard> records, final boolean repeats, final long last) {
        long expected = 0;
        ByteBuffer previous = null;
        long finalVersion = -1;
        for (final ModelShard record : records) {
            final long version = record.getVersion();
            if (version == expected - 1 && (record.getFinalVersion() || repeats)) {
                if (!record.getValues().equals(previous)) {
                    return "version " + version + " published again with other parameters";
                }
            } else if (version != expected) {
                return "version " + version + " where " + expected + " was due";
            } else {
                expected++;
                previous = record.getValues();
            }
            if (record.getFinalVersion()) {
                finalVersion = version;
            }
        }
        final long wanted = last >= 0 ? last : finalVersion;
        if (wanted < 0) {
            return "no version marked final";
        }
        return expected == wanted + 1 ? null : "versions 0.." + (expected - 1) + ", not 0.." + wanted;
    }
}
