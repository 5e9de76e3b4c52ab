package io.paramhub.aggregator.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A job's model gathered across instances: its shape as shard 0 knows it and every shard that was
 * found, in shard order; the body of {@code GET /jobs/{job}/model}.
 */
record JobModel(String job, int shardCount, int parameterCount, List<ShardSnapshot> shards) {

    JobModel {
        shards = shards.stream()
                .sorted(Comparator.comparingInt(ShardSnapshot::shard))
                .toList();
    }

    /** Whether every shard of the job was found. */
    boolean complete() {
        return missingShards().isEmpty();
    }

    List<Integer> missingShards() {
        final List<Integer> missing = new ArrayList<>();
        int next = 0;
        for (int shard = 0; shard < shardCount; shard++) {
            if (next < shards.size() && shards.get(next).shard() == shard) {
                next++;
            } else {
                missing.add(shard);
            }
        }
        return missing;
    }

    JsonObject toJson() {
        final JsonArray entries = new JsonArray();
        shards.forEach(shard -> entries.add(shard.toModelEntry()));
        return new JsonObject()
                .put("job", job)
                .put("parameterCount", parameterCount)
                .put("shardCount", shardCount)
                .put("complete", complete())
                .put("missingShards", new JsonArray(missingShards()))
                .put(
                        "minVersion",
                        shards.stream().mapToLong(ShardSnapshot::version).min().orElse(-1))
                .put(
                        "maxVersion",
                        shards.stream().mapToLong(ShardSnapshot::version).max().orElse(-1))
                .put(
                        "minClock",
                        shards.stream().mapToLong(ShardSnapshot::minClock).min().orElse(-1))
                .put("shards", entries);
    }
}
