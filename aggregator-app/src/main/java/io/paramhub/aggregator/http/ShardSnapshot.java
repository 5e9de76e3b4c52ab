package io.paramhub.aggregator.http;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.jobs.JobSpecs;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * One shard of a job's model as the instance hosting it holds it: the job's shape from
 * {@code shard-job-store}, the shard's newest version, minClock and parameters from {@code shard-model-store},
 * and who served it ({@link #LOCAL} or the {@code host:port} of another instance).
 *
 * <p>Values travel in JSON as the float32 values widened to double, so that parsing them as double and
 * narrowing to float gives back the exact parameters.
 */
record ShardSnapshot(
        String job,
        int shard,
        int shardCount,
        int parameterCount,
        long version,
        long minClock,
        int firstParameter,
        float[] values,
        String servedBy) {

    static final String LOCAL = "local";

    /** The snapshot of {@code model}, a shard of {@code spec}, read from this instance's stores. */
    static ShardSnapshot of(final JobSpec spec, final ModelShard model) {
        return new ShardSnapshot(
                spec.getJob(),
                model.getShard(),
                spec.getShards(),
                spec.getParameters(),
                model.getVersion(),
                model.getMinClock(),
                JobSpecs.layout(spec).first(model.getShard()),
                FloatPacking.unpack(model.getValues()),
                LOCAL);
    }

    /** The answer of {@code GET /internal/shards/{job}/{shard}}, served by instance {@code servedBy}. */
    static ShardSnapshot fromJson(final JsonObject json, final String servedBy) {
        final JsonArray array = json.getJsonArray("values");
        final float[] values = new float[array.size()];
        for (int i = 0; i < values.length; i++) {
            // non-finite values are written as the strings NaN, Infinity and -Infinity
            final Object value = array.getValue(i);
            values[i] = value instanceof Number number ? number.floatValue() : Float.parseFloat(value.toString());
        }
        return new ShardSnapshot(
                json.getString("job"),
                json.getInteger("shard"),
                json.getInteger("shardCount"),
                json.getInteger("parameterCount"),
                json.getLong("version"),
                json.getLong("minClock"),
                json.getInteger("firstParameter"),
                values,
                servedBy);
    }

    /** The body of {@code GET /internal/shards/{job}/{shard}}. */
    JsonObject toJson() {
        return new JsonObject()
                .put("job", job)
                .put("shard", shard)
                .put("shardCount", shardCount)
                .put("parameterCount", parameterCount)
                .put("version", version)
                .put("minClock", minClock)
                .put("firstParameter", firstParameter)
                .put("values", valuesJson());
    }

    /** This shard's entry in the {@code shards} array of {@code GET /jobs/{job}/model}. */
    JsonObject toModelEntry() {
        return new JsonObject()
                .put("shard", shard)
                .put("version", version)
                .put("minClock", minClock)
                .put("firstParameter", firstParameter)
                .put("servedBy", servedBy)
                .put("values", valuesJson());
    }

    private JsonArray valuesJson() {
        final JsonArray array = new JsonArray();
        for (final float value : values) {
            array.add((double) value);
        }
        return array;
    }
}
