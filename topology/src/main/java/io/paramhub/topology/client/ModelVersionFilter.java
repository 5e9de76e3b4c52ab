package io.paramhub.topology.client;

import io.paramhub.avro.ModelShard;
import java.nio.ByteBuffer;
import java.util.function.LongSupplier;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Deserializes {@code model} records for a reader that needs only versions whose {@code minClock} reaches a bound
 * it moves forward ({@link ModelSnapshots#nextClock()}): a record whose {@link ModelHeaders#MIN_CLOCK} header says
 * it is older reads as null, as if it were a tombstone, without its values being decoded; every other record is
 * decoded by {@code decoder}.
 */
public final class ModelVersionFilter implements Deserializer<ModelShard> {

    private final Deserializer<ModelShard> decoder;
    private final LongSupplier neededMinClock;

    public ModelVersionFilter(final Deserializer<ModelShard> decoder, final LongSupplier neededMinClock) {
        this.decoder = decoder;
        this.neededMinClock = neededMinClock;
    }

    @Override
    public ModelShard deserialize(final String topic, final byte[] data) {
        return decoder.deserialize(topic, data);
    }

    @Override
    public ModelShard deserialize(final String topic, final Headers headers, final byte[] data) {
        return skipped(headers) ? null : decoder.deserialize(topic, headers, data);
    }

    @Override
    public ModelShard deserialize(final String topic, final Headers headers, final ByteBuffer data) {
        return skipped(headers) ? null : decoder.deserialize(topic, headers, data);
    }

    private boolean skipped(final Headers headers) {
        final long minClock = ModelHeaders.minClock(headers);
        return minClock >= 0 && minClock < neededMinClock.getAsLong();
    }
}
