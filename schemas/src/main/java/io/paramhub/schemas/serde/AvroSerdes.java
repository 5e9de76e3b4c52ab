package io.paramhub.schemas.serde;

import io.paramhub.schemas.registry.SchemaRegistryClient;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/** Factories of configured {@link AvroSerde}s, for building topic descriptors from config. */
public final class AvroSerdes {

    private AvroSerdes() {}

    /**
     * A serde of {@code type} configured from {@code config} ({@code schema.registry.url},
     * {@code auto.register.schemas}, basic-auth settings) for keys or values.
     */
    public static <T extends SpecificRecord> AvroSerde<T> of(
            final Class<T> type, final Map<String, ?> config, final boolean isKey) {
        final AvroSerde<T> serde = new AvroSerde<>(type);
        serde.configure(config, isKey);
        return serde;
    }

    /** A serde of {@code type} on {@code registry}, with the options in {@code config}, for keys or values. */
    public static <T extends SpecificRecord> AvroSerde<T> of(
            final Class<T> type,
            final SchemaRegistryClient registry,
            final Map<String, ?> config,
            final boolean isKey) {
        final AvroSerde<T> serde = new AvroSerde<>(type, registry);
        serde.configure(config, isKey);
        return serde;
    }
}
