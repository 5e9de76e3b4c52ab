package io.paramhub.worker;

import io.paramhub.avro.ModelShard;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a worker's feed of {@code model} does with each record it hands out: a shard goes to the worker, a tombstone
 * (the aggregator writes them when a job is deleted, {@code paramhub jobs delete}) is kept by its key, and a shard
 * of that key again (the job submitted anew under its name) forgets it.
 */
final class ModelTombstones {

    private final Set<String> keys = ConcurrentHashMap.newKeySet();

    /** Hands {@code record}'s shard to {@code sink}, or keeps its key when it is a tombstone. */
    void take(final ConsumerRecord<String, ModelShard> record, final Consumer<ModelShard> sink) {
        if (record.value() != null) {
            keys.remove(record.key());
            sink.accept(record.value());
        } else if (record.key() != null) {
            keys.add(record.key());
        }
    }

    /** Whether a tombstone of one of {@code job}'s shards is kept. */
    boolean deleted(final String job) {
        return keys.stream().anyMatch(key -> key.startsWith(job + "/"));
    }
}
