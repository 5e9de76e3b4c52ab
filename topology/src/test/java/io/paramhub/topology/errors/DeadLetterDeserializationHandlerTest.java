package io.paramhub.topology.errors;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.schemas.registry.SchemaRegistryException;
import io.paramhub.schemas.serde.AvroSerdes;
import io.paramhub.schemas.serde.WireFormat;
import io.paramhub.topology.StreamsProperties;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler.Response;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeadLetterDeserializationHandlerTest {

    private static final String SOURCE = "paramhub.membership";
    private static final String DEAD_LETTERS = "paramhub.dead-letters";
    private static final byte[] KEY = "job-a/worker-000".getBytes(StandardCharsets.UTF_8);

    private final String scope = "dead-letter-handler-test-" + UUID.randomUUID();
    private final Map<String, Object> config = new HashMap<>(
            Map.of(StreamsProperties.SCHEMA_REGISTRY_URL, "mock://" + scope, DeadLetterSettings.TOPIC, DEAD_LETTERS));

    @AfterEach
    void dropRegistry() {
        SchemaRegistryClients.dropScope(scope);
    }

    @Test
    void shouldDeadLetterARecordThatIsNotAvroAsMalformedAndResume() {
        // given
        final DeadLetterDeserializationHandler handler = configured(config);
        final byte[] garbage = {7, 1, 2, 3};
        final Exception error = deserializationError(garbage);

        // when
        final Response response =
                handler.handleError(HandlerContext.of(SOURCE, 0, 42, KEY, garbage), consumerRecord(42, garbage), error);

        // then
        assertThat(response.result()).isEqualTo(Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).hasSize(1);
        final ProducerRecord<byte[], byte[]> record =
                response.deadLetterQueueRecords().get(0);
        assertThat(record.topic()).isEqualTo(DEAD_LETTERS);
        assertThat(record.key()).isEqualTo(KEY);
        final DeadLetter letter = deadLetter(record);
        assertThat(letter.getReason()).isEqualTo(DeadLetterReason.MALFORMED);
        assertThat(letter.getSourceTopic()).isEqualTo(SOURCE);
        assertThat(letter.getPartition()).isZero();
        assertThat(letter.getOffset()).isEqualTo(42);
        assertThat(bytes(letter.getOriginalBytes())).isEqualTo(garbage);
        assertThat(letter.getError()).contains("magic byte");
    }

    @Test
    void shouldDeadLetterAsUnknownSchemaWhenTheRegistryDoesNotKnowTheSchemaId() {
        // given
        final DeadLetterDeserializationHandler handler = configured(config);
        final byte[] unknownId = concat(WireFormat.header(4242), new byte[] {2, 'x'});
        final Exception error = deserializationError(unknownId);

        // when
        final Response response = handler.handleError(
                HandlerContext.of(SOURCE, 0, 7, KEY, unknownId), consumerRecord(7, unknownId), error);

        // then
        assertThat(response.result()).isEqualTo(Result.RESUME);
        final DeadLetter letter = deadLetter(response.deadLetterQueueRecords().get(0));
        assertThat(letter.getReason()).isEqualTo(DeadLetterReason.UNKNOWN_SCHEMA);
        assertThat(bytes(letter.getOriginalBytes())).isEqualTo(unknownId);
    }

    @Test
    void shouldFailWithoutDeadLetterWhenTheRegistryCannotBeReached() {
        // given
        final DeadLetterDeserializationHandler handler = configured(config);
        final byte[] value = concat(WireFormat.header(1), new byte[] {2, 'x'});
        final Exception unreachable = new SerializationException(
                "Error retrieving Avro schema id 1",
                new SchemaRegistryException(
                        "No schema registry reachable",
                        SchemaRegistryException.NO_RESPONSE,
                        SchemaRegistryException.NO_RESPONSE));

        // when
        final Response response =
                handler.handleError(HandlerContext.of(SOURCE, 0, 3, KEY, value), consumerRecord(3, value), unreachable);

        // then
        assertThat(response.result()).isEqualTo(Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    @Test
    void shouldFailWhenNoDeadLetterTopicIsConfigured() {
        // given
        config.remove(DeadLetterSettings.TOPIC);
        final DeadLetterDeserializationHandler handler = configured(config);
        final byte[] garbage = {7, 1, 2, 3};

        // when
        final Response response = handler.handleError(
                HandlerContext.of(SOURCE, 0, 1, KEY, garbage),
                consumerRecord(1, garbage),
                deserializationError(garbage));

        // then
        assertThat(response.result()).isEqualTo(Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    private static DeadLetterDeserializationHandler configured(final Map<String, ?> config) {
        final DeadLetterDeserializationHandler handler = new DeadLetterDeserializationHandler();
        handler.configure(config);
        return handler;
    }

    /** The exception our Avro deserializer really throws on {@code value}. */
    private Exception deserializationError(final byte[] value) {
        final Deserializer<WorkerStatus> deserializer =
                AvroSerdes.of(WorkerStatus.class, config, false).deserializer();
        try {
            final WorkerStatus status = deserializer.deserialize(SOURCE, value);
            throw new AssertionError("expected " + Arrays.toString(value) + " not to deserialize, got " + status);
        } catch (final SerializationException e) {
            return e;
        }
    }

    private static ConsumerRecord<byte[], byte[]> consumerRecord(final long offset, final byte[] value) {
        return new ConsumerRecord<>(SOURCE, 0, offset, KEY, value);
    }

    private DeadLetter deadLetter(final ProducerRecord<byte[], byte[]> record) {
        return AvroSerdes.of(DeadLetter.class, config, false)
                .deserializer()
                .deserialize(record.topic(), record.value());
    }

    static byte[] bytes(final ByteBuffer buffer) {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    static byte[] concat(final byte[] first, final byte[] second) {
        final byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
