package io.paramhub.topology.client;

import io.paramhub.schemas.registry.SchemaRegistryClient;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.schemas.registry.SchemaRegistryConfig;
import io.paramhub.schemas.serde.AvroSerde;
import io.paramhub.schemas.serde.TopicNameStrategy;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import java.util.Map;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Registers the value schema of every topic of a {@link TopicCatalog} under its subject ({@code <topic>-value}), as
 * a deployment does once, before its first job. The serdes of the same {@link SerdeFactory} share one registry
 * client, which keeps the ids: their first records then need no call to the registry while a job starts.
 * Registering a schema that is there already only returns its id.
 */
public final class SchemaRegistration {

    private SchemaRegistration() {}

    /**
     * Registers the value schemas of {@code topics} with the registry {@code serdes} are configured for; returns how
     * many topics it registered for: none when the serdes are set not to register ({@code auto.register.schemas=false}).
     *
     * @throws io.paramhub.schemas.registry.SchemaRegistryException when the registry refuses a schema or cannot be
     *     reached
     */
    public static int registerValueSchemas(final TopicCatalog topics, final SerdeFactory serdes) {
        if (!SchemaRegistryConfig.autoRegisters(serdes.config())) {
            // the serdes only look schemas up: registering them is someone else's job
            return 0;
        }
        final SchemaRegistryClient registry = SchemaRegistryClients.fromConfig(serdes.config());
        int registered = 0;
        for (final Topic<String, ?> topic : topics.all()) {
            if (topic.valueSerde() instanceof AvroSerde<?> avro) {
                registry.register(TopicNameStrategy.subject(topic.name(), false), avro.schema());
                registered++;
            }
        }
        return registered;
    }

    /**
     * Registers the value schemas of an app's stores (their value types by store name) under their changelog topics'
     * subjects, {@code <applicationId>-<store>-changelog-value}, as the stores' serdes do on their first record;
     * returns how many: none when the serdes are set not to register.
     *
     * @throws io.paramhub.schemas.registry.SchemaRegistryException when the registry refuses a schema or cannot be
     *     reached
     */
    public static int registerStoreSchemas(
            final String applicationId,
            final Map<String, Class<? extends SpecificRecord>> stores,
            final SerdeFactory serdes) {
        if (!SchemaRegistryConfig.autoRegisters(serdes.config())) {
            return 0;
        }
        final SchemaRegistryClient registry = SchemaRegistryClients.fromConfig(serdes.config());
        stores.forEach((store, type) -> registry.register(
                TopicNameStrategy.subject(applicationId + "-" + store + "-changelog", false),
                SpecificData.get().getSchema(type)));
        return stores.size();
    }
}
