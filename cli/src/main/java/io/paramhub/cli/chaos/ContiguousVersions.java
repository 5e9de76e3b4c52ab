package io.paramhub.cli.chaos;

import io.paramhub.avro.ModelShard;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.client.TopicReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Every shard of the job committed versions 0..N on {@code model} (read_committed), each once, in order: no
 * version lost, none published twice by an aggregator that was killed, frozen or fenced. The final version
 * published again with the job's end marked does not count as a version of its own, and the hostile tenant's forged
 * versions (which the workers set aside) are none of the aggregators'.
 */
final class ContiguousVersions implements Invariant {

    @Override
    public String name() {
        return "shard-versions-contiguous";
    }

    @Override
    public Verdict check(final ChaosRecord run) {
        final String job = run.spec().getJob();
        final Set<String> forged = run.forged().stream()
                .filter(sent -> sent.topic().equals(run.topics().model().name()))
                .map(sent -> sent.partition() + "@" + sent.offset())
                .collect(Collectors.toSet());
        final Map<String, List<Long>> versions = new TreeMap<>();
        for (int shard = 0; shard < run.spec().getShards(); shard++) {
            versions.put(ShardKeys.shard(job, shard), new ArrayList<>());
        }
        try (TopicReader<String, ModelShard> reader =
                new TopicReader<>(run.topics().model(), run.client())) {
            reader.catchUp(Duration.ofSeconds(60), record -> {
                final List<Long> shard = versions.get(record.key());
                if (shard != null
                        && record.value() != null
                        && !record.value().getFinalVersion()
                        && !forged.contains(record.partition() + "@" + record.offset())) {
                    shard.add(record.value().getVersion());
                }
            });
        } catch (final RuntimeException e) {
            return Verdict.fail(name(), "could not read " + run.topics().model().name() + ": " + e.getMessage());
        }
        final List<String> problems = new ArrayList<>();
        versions.forEach((key, list) -> {
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i) != i) {
                    problems.add(key + ": version " + list.get(i) + " at position " + i);
                    return;
                }
            }
            if (list.size() != run.clocks() + 1) {
                problems.add(key + ": " + list.size() + " versions, not " + (run.clocks() + 1));
            }
        });
        return problems.isEmpty()
                ? Verdict.pass(name(), versions.size() + " shards, versions 0.." + run.clocks() + " each once")
                : Verdict.fail(name(), String.join("; ", problems));
    }
}
