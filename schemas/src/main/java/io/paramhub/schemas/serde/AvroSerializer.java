package io.paramhub.schemas.serde;

import io.paramhub.schemas.registry.SchemaRegistryClient;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.schemas.registry.SchemaRegistryConfig;
import io.paramhub.schemas.registry.SchemaRegistryException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes generated Avro records in Confluent's wire format, registering (or, with
 * {@code auto.register.schemas=false}, looking up) the record's schema under {@code <topic>-value}
 * or {@code <topic>-key}.
 */
public final class AvroSerializer<T extends SpecificRecord> implements Serializer<T> {

    private final Map<Class<?>, DatumWriter<T>> writers = new ConcurrentHashMap<>();
    private SchemaRegistryClient registry;
    private boolean autoRegister = true;
    private boolean useLatestVersion;
    // as Confluent's default latest.cache.ttl.sec=-1: the latest version is asked for once per subject
    private final Map<String, Integer> latestIds = new ConcurrentHashMap<>();
    private boolean isKey;

    /** A serializer that finds its registry in the config given to {@link #configure}. */
    public AvroSerializer() {}

    /** A serializer that uses {@code registry}; it writes values until configured otherwise. */
    public AvroSerializer(final SchemaRegistryClient registry) {
        this.registry = registry;
    }

    @Override
    public void configure(final Map<String, ?> configs, final boolean isKey) {
        this.isKey = isKey;
        this.autoRegister = SchemaRegistryConfig.autoRegisters(configs);
        this.useLatestVersion = SchemaRegistryConfig.flag(configs, SchemaRegistryConfig.USE_LATEST_VERSION, false);
        if (registry == null) {
            registry = SchemaRegistryClients.fromConfig(configs);
        }
    }

    /** The registry it writes schemas to; null before {@link #configure} when none was given. */
    SchemaRegistryClient registry() {
        return registry;
    }

    @Override
    public byte[] serialize(final String topic, final T data) {
        if (data == null) {
            return null;
        }
        if (registry == null) {
            throw new IllegalStateException("AvroSerializer has no schema registry: call configure() first");
        }
        final Schema schema = data.getSchema();
        final int id = schemaId(topic, schema);
        try {
            final EncodingBuffer out = EncodingBuffer.acquire();
            WireFormat.writeHeader(out, id);
            final BinaryEncoder encoder = out.encoder();
            writer(data).write(data, encoder);
            encoder.flush();
            return out.bytes();
        } catch (final IOException | RuntimeException e) {
            throw new SerializationException(
                    "Error serializing Avro record " + schema.getFullName() + " for topic " + topic, e);
        }
    }

    private int schemaId(final String topic, final Schema schema) {
        final String subject = TopicNameStrategy.subject(topic, isKey);
        try {
            if (useLatestVersion) {
                return latestId(subject, schema);
            }
            return autoRegister ? registry.register(subject, schema) : registry.lookupId(subject, schema);
        } catch (final SchemaRegistryException e) {
            throw new SerializationException(
                    "Error " + (autoRegister ? "registering" : "looking up") + " Avro schema " + schema.getFullName()
                            + " under subject '" + subject + "': " + e.getMessage(),
                    e);
        }
    }

    private int latestId(final String subject, final Schema schema) {
        final Integer cached = latestIds.get(subject);
        if (cached != null) {
            return cached;
        }
        final SchemaRegistryClient.RegisteredSchema latest = registry.latest(subject);
        if (!latest.schema().equals(schema)) {
            throw new SerializationException("use.latest.version: the latest version of subject '" + subject
                    + "' (id " + latest.id() + ") is not the schema of " + schema.getFullName()
                    + " this serializer writes");
        }
        latestIds.put(subject, latest.id());
        return latest.id();
    }

    @SuppressWarnings("unchecked")
    private DatumWriter<T> writer(final T data) {
        return writers.computeIfAbsent(
                data.getClass(),
                type -> new SpecificDatumWriter<>(data.getSchema(), SpecificData.getForClass((Class<T>) type)));
    }
}
