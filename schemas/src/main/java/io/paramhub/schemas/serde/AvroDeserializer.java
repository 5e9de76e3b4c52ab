package io.paramhub.schemas.serde;

import io.paramhub.schemas.registry.SchemaRegistryClient;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.schemas.registry.SchemaRegistryException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Utils;

/**
 * Reads records in Confluent's wire format into a generated Avro class: fetches the writer schema by
 * the id in the header and resolves it against the class's own schema, so data written with an older
 * or newer compatible schema reads into the current class.
 */
public final class AvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {

    private final Class<T> type;
    private final SpecificData model;
    private final Schema readerSchema;
    private final Map<Integer, DatumReader<T>> readers = new ConcurrentHashMap<>();
    private SchemaRegistryClient registry;

    /** A deserializer into {@code type} that finds its registry in the config given to {@link #configure}. */
    public AvroDeserializer(final Class<T> type) {
        this(type, null);
    }

    /** A deserializer into {@code type} that uses {@code registry}. */
    public AvroDeserializer(final Class<T> type, final SchemaRegistryClient registry) {
        this.type = type;
        this.model = SpecificData.getForClass(type);
        this.readerSchema = model.getSchema(type);
        this.registry = registry;
    }

    @Override
    public void configure(final Map<String, ?> configs, final boolean isKey) {
        if (registry == null) {
            registry = SchemaRegistryClients.fromConfig(configs);
        }
    }

    @Override
    public T deserialize(final String topic, final byte[] data) {
        if (data == null) {
            return null;
        }
        return decode(topic, data, 0, data.length);
    }

    /**
     * Reads straight from the consumer's fetched bytes when they are on the heap: a record of a few hundred
     * KiB (a model shard) is not first copied into an array of its own.
     */
    @Override
    public T deserialize(final String topic, final Headers headers, final ByteBuffer data) {
        if (data == null) {
            return null;
        }
        if (!data.hasArray()) {
            return deserialize(topic, headers, Utils.toArray(data));
        }
        return decode(topic, data.array(), data.arrayOffset() + data.position(), data.remaining());
    }

    private T decode(final String topic, final byte[] data, final int offset, final int length) {
        if (registry == null) {
            throw new IllegalStateException("AvroDeserializer has no schema registry: call configure() first");
        }
        final int id = WireFormat.schemaId(topic, data, offset, length);
        final DatumReader<T> reader = reader(topic, id);
        try {
            return reader.read(
                    null,
                    DecoderFactory.get()
                            .binaryDecoder(
                                    data, offset + WireFormat.HEADER_SIZE, length - WireFormat.HEADER_SIZE, null));
        } catch (final IOException | RuntimeException e) {
            throw new SerializationException(
                    "Error deserializing Avro record of topic " + topic + " with schema id " + id + " into "
                            + type.getName(),
                    e);
        }
    }

    private DatumReader<T> reader(final String topic, final int id) {
        final DatumReader<T> cached = readers.get(id);
        if (cached != null) {
            return cached;
        }
        final Schema writerSchema;
        try {
            writerSchema = registry.schemaById(id);
        } catch (final SchemaRegistryException e) {
            throw new SerializationException(
                    "Error retrieving Avro schema id " + id + " for record of topic " + topic + ": " + e.getMessage(),
                    e);
        }
        final DatumReader<T> reader = new SpecificDatumReader<>(writerSchema, readerSchema, model);
        final DatumReader<T> previous = readers.putIfAbsent(id, reader);
        return previous == null ? reader : previous;
    }
}
