package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.schemas.registry.SchemaRegistryException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Decodes a raw {@code gradients} record, telling a poison pill (not Avro, unknown schema id:
 * dead-lettered) from a registry that cannot be reached (thrown, so the task retries and nothing is lost).
 */
final class GradientDecoding {

    private static final int NOT_FOUND = 404;

    private GradientDecoding() {}

    static GradientShard decode(
            final Deserializer<GradientShard> deserializer,
            final String topic,
            final Headers headers,
            final byte[] value)
            throws UndecodableGradient {
        if (value == null) {
            throw new UndecodableGradient(new Rejection(DeadLetterReason.MALFORMED, "value is null"));
        }
        try {
            return deserializer.deserialize(topic, headers, value);
        } catch (final SerializationException | SchemaRegistryException e) {
            final SchemaRegistryException registryError = registryCause(e);
            if (registryError == null) {
                throw new UndecodableGradient(new Rejection(DeadLetterReason.MALFORMED, describe(e)));
            }
            if (registryError.httpStatus() == NOT_FOUND) {
                throw new UndecodableGradient(new Rejection(DeadLetterReason.UNKNOWN_SCHEMA, describe(e)));
            }
            throw registryError;
        } catch (final RuntimeException e) {
            throw new UndecodableGradient(new Rejection(DeadLetterReason.MALFORMED, describe(e)));
        }
    }

    private static SchemaRegistryException registryCause(final Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof SchemaRegistryException registryError) {
                return registryError;
            }
        }
        return null;
    }

    private static String describe(final Throwable error) {
        final StringBuilder text = new StringBuilder(String.valueOf(error.getMessage()));
        for (Throwable cause = error.getCause(); cause != null; cause = cause.getCause()) {
            text.append(": ").append(cause.getMessage());
        }
        return text.toString();
    }

    /** A gradient record that can never be decoded, with the reason to dead-letter it. */
    static final class UndecodableGradient extends Exception {
        private final transient Rejection rejection;

        UndecodableGradient(final Rejection rejection) {
            super(rejection.message());
            this.rejection = rejection;
        }

        Rejection rejection() {
            return rejection;
        }
    }
}
