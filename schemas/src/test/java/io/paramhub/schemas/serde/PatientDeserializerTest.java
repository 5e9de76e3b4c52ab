package io.paramhub.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.schemas.registry.SchemaRegistryException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;

class PatientDeserializerTest {

    private static final byte[] RECORD = {0, 0, 0, 0, 7};

    private final List<Duration> pauses = new ArrayList<>();

    /** Fails its first {@code outages} calls as an unreachable registry does (wrapped, as the Avro deserializer does). */
    private static Deserializer<String> registryDownFor(final int outages, final int[] calls) {
        return (topic, data) -> {
            calls[0]++;
            if (calls[0] <= outages) {
                throw new SerializationException(
                        "could not fetch schema 7",
                        new SchemaRegistryException(
                                "connection refused",
                                SchemaRegistryException.NO_RESPONSE,
                                SchemaRegistryException.NO_RESPONSE));
            }
            return "decoded";
        };
    }

    @Test
    void shouldDecodeOnceTheRegistryAnswersAgainWithGrowingPauses() {
        // given: a registry down for the first six attempts
        final int[] calls = {0};
        final PatientDeserializer<String> deserializer =
                new PatientDeserializer<>(registryDownFor(6, calls), pauses::add);

        // when
        final String value = deserializer.deserialize("paramhub.jobs", RECORD);

        // then
        assertThat(value).isEqualTo("decoded");
        assertThat(calls[0]).isEqualTo(7);
        assertThat(pauses)
                .extracting(Duration::toMillis)
                .containsExactly(1_000L, 2_000L, 4_000L, 5_000L, 5_000L, 5_000L);
    }

    @Test
    void shouldFailAtOnceWhenTheRegistryRefusesTheRecord() {
        // given: an id the registry does not know (HTTP 404)
        final Deserializer<String> unknownId = (topic, data) -> {
            throw new SerializationException(
                    "unknown schema",
                    new SchemaRegistryException("not found", 404, SchemaRegistryException.SCHEMA_NOT_FOUND));
        };
        final PatientDeserializer<String> deserializer = new PatientDeserializer<>(unknownId, pauses::add);

        // when / then
        assertThatThrownBy(() -> deserializer.deserialize("paramhub.jobs", RECORD))
                .isInstanceOf(SerializationException.class);
        assertThat(pauses).isEmpty();
    }

    @Test
    void shouldStopWaitingWhenInterrupted() {
        // given: a registry that never returns, and a wait that is interrupted
        final int[] calls = {0};
        final PatientDeserializer<String> deserializer =
                new PatientDeserializer<>(registryDownFor(Integer.MAX_VALUE, calls), pause -> {
                    throw new InterruptedException("closing");
                });

        // when / then
        try {
            assertThatThrownBy(() -> deserializer.deserialize("paramhub.jobs", RECORD))
                    .isInstanceOf(InterruptException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
            assertThat(calls[0]).isEqualTo(1);
        } finally {
            Thread.interrupted();
        }
    }
}
