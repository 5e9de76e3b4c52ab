package io.paramhub.schemas.serde;

import io.paramhub.schemas.registry.SchemaRegistryClient;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** The Confluent-wire-format {@link AvroSerializer} and {@link AvroDeserializer} of one generated class. */
public final class AvroSerde<T extends SpecificRecord> implements Serde<T> {

    private final Schema schema;
    private final AvroSerializer<T> serializer;
    private final AvroDeserializer<T> deserializer;

    /** A serde of {@code type} that finds its registry in the config given to {@link #configure}. */
    public AvroSerde(final Class<T> type) {
        this.schema = SpecificData.get().getSchema(type);
        this.serializer = new AvroSerializer<>();
        this.deserializer = new AvroDeserializer<>(type);
    }

    /** A serde of {@code type} that uses {@code registry}; {@link #configure} then sets only the options. */
    public AvroSerde(final Class<T> type, final SchemaRegistryClient registry) {
        this.schema = SpecificData.get().getSchema(type);
        this.serializer = new AvroSerializer<>(registry);
        this.deserializer = new AvroDeserializer<>(type, registry);
    }

    /** The schema this serde writes: its class's. */
    public Schema schema() {
        return schema;
    }

    /** The registry this serde reads and writes schemas with, once configured: for values of other schemas. */
    public SchemaRegistryClient registry() {
        return serializer.registry();
    }

    @Override
    public void configure(final Map<String, ?> configs, final boolean isKey) {
        serializer.configure(configs, isKey);
        deserializer.configure(configs, isKey);
    }

    @Override
    public void close() {
        serializer.close();
        deserializer.close();
    }

    @Override
    public Serializer<T> serializer() {
        return serializer;
    }

    @Override
    public Deserializer<T> deserializer() {
        return deserializer;
    }
}
