package io.paramhub.topology.errors;

import static io.paramhub.topology.errors.DeadLetterDeserializationHandlerTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.schemas.registry.SchemaRegistryException;
import io.paramhub.schemas.serde.AvroSerdes;
import io.paramhub.topology.StreamsProperties;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.Response;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.Result;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.SerializationExceptionOrigin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeadLetterProductionHandlerTest {

    private static final String SOURCE = "paramhub.gradients";
    private static final String MODEL = "paramhub.model";
    private static final String DEAD_LETTERS = "paramhub.dead-letters";
    private static final byte[] KEY = "job-a/1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] VALUE = {0, 0, 0, 0, 1, 2, 3};
    private static final ErrorHandlerContext CONTEXT = HandlerContext.of(SOURCE, 1, 99, KEY, VALUE);
    private static final ProducerRecord<byte[], byte[]> OUTPUT = new ProducerRecord<>(MODEL, KEY, new byte[10]);

    private final String scope = "production-handler-test-" + UUID.randomUUID();

    @AfterEach
    void dropRegistry() {
        SchemaRegistryClients.dropScope(scope);
    }

    @Test
    void shouldDeadLetterTheInputAndResumeWhenAnOutputCannotBeSerializedUnderExactlyOnce() {
        // given
        final DeadLetterProductionHandler handler = configured(StreamsConfig.EXACTLY_ONCE_V2);

        // when
        final Response response = handler.handleSerializationError(
                CONTEXT,
                new ProducerRecord<>(MODEL, "job-a/1", "value"),
                new SerializationException("too large"),
                SerializationExceptionOrigin.VALUE);

        // then
        assertThat(response.result()).isEqualTo(Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).singleElement().satisfies(record -> {
            assertThat(record.topic()).isEqualTo(DEAD_LETTERS);
            assertThat(record.key()).isEqualTo(KEY);
            final DeadLetter letter = letter(record.value());
            assertThat(letter.getReason()).isEqualTo(DeadLetterReason.OTHER);
            assertThat(letter.getSourceTopic()).isEqualTo(SOURCE);
            assertThat(letter.getOffset()).isEqualTo(99);
            assertThat(bytes(letter.getOriginalBytes())).isEqualTo(VALUE);
            assertThat(letter.getError())
                    .isEqualTo("could not serialize the VALUE of a record for " + MODEL
                            + ": SerializationException too large");
        });
    }

    @Test
    void shouldFailWhenTheRegistryFailsWhileSerializing() {
        // given
        final DeadLetterProductionHandler handler = configured(StreamsConfig.EXACTLY_ONCE_V2);

        // when
        final Response response = handler.handleSerializationError(
                CONTEXT,
                new ProducerRecord<>(MODEL, "job-a/1", "value"),
                new SerializationException("cannot register", new SchemaRegistryException("HTTP 503", 503, 50301)),
                SerializationExceptionOrigin.VALUE);

        // then
        assertThat(response.result()).isEqualTo(Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    @Test
    void shouldFailWhenASendFailsUnderExactlyOnceBecauseTheTransactionIsLostAlready() {
        // given
        final DeadLetterProductionHandler handler = configured(StreamsConfig.EXACTLY_ONCE_V2);

        // when
        final Response response = handler.handleError(CONTEXT, OUTPUT, new RecordTooLargeException("2 MiB"));

        // then
        assertThat(response.result()).isEqualTo(Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    @Test
    void shouldDeadLetterTheInputAndResumeWhenASendFailsUnderAtLeastOnce() {
        // given
        final DeadLetterProductionHandler handler = configured(StreamsConfig.AT_LEAST_ONCE);

        // when
        final Response response = handler.handleError(CONTEXT, OUTPUT, new RecordTooLargeException("2 MiB"));

        // then
        assertThat(response.result()).isEqualTo(Result.RESUME);
        assertThat(response.deadLetterQueueRecords())
                .singleElement()
                .satisfies(record -> assertThat(letter(record.value()).getError())
                        .isEqualTo("could not produce a record to " + MODEL + ": RecordTooLargeException 2 MiB"));
    }

    @Test
    void shouldNotDeadLetterADeadLetterThatCannotBeSent() {
        // given
        final DeadLetterProductionHandler handler = configured(StreamsConfig.AT_LEAST_ONCE);

        // when
        final Response response = handler.handleError(
                CONTEXT, new ProducerRecord<>(DEAD_LETTERS, KEY, new byte[10]), new RecordTooLargeException("big"));

        // then
        assertThat(response.result()).isEqualTo(Result.FAIL);
    }

    @Test
    void shouldRetryWhenASendFailsWithARetriableError() {
        // given
        final DeadLetterProductionHandler handler = configured(StreamsConfig.EXACTLY_ONCE_V2);

        // when
        final Response response = handler.handleError(CONTEXT, OUTPUT, new NotEnoughReplicasException("1 of 2"));

        // then
        assertThat(response.result()).isEqualTo(Result.RETRY);
    }

    private DeadLetterProductionHandler configured(final String guarantee) {
        final Map<String, Object> config = new HashMap<>();
        config.put(StreamsProperties.SCHEMA_REGISTRY_URL, "mock://" + scope);
        config.put(DeadLetterSettings.TOPIC, DEAD_LETTERS);
        config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
        final DeadLetterProductionHandler handler = new DeadLetterProductionHandler();
        handler.configure(config);
        return handler;
    }

    private DeadLetter letter(final byte[] value) {
        return AvroSerdes.of(DeadLetter.class, Map.of(StreamsProperties.SCHEMA_REGISTRY_URL, "mock://" + scope), false)
                .deserializer()
                .deserialize(DEAD_LETTERS, value);
    }
}
