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
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler.Response;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler.Result;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DeadLetterProcessingHandlerTest {

    private static final String SOURCE = "paramhub.shard-jobs";
    private static final String DEAD_LETTERS = "paramhub.dead-letters";
    private static final byte[] KEY = "job-a/1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] VALUE = {0, 0, 0, 0, 1, 2, 3};

    private final String scope = "processing-handler-test-" + UUID.randomUUID();
    private final Map<String, Object> config =
            Map.of(StreamsProperties.SCHEMA_REGISTRY_URL, "mock://" + scope, DeadLetterSettings.TOPIC, DEAD_LETTERS);

    @AfterEach
    void dropRegistry() {
        SchemaRegistryClients.dropScope(scope);
    }

    @Test
    void shouldDeadLetterTheSourceRecordAsOtherWhenAProcessorThrowsUnexpectedly() {
        // given
        final DeadLetterProcessingHandler handler = configured();
        final ErrorHandlerContext context = HandlerContext.of(SOURCE, 1, 99, KEY, VALUE);

        // when
        final Response response =
                handler.handleError(context, new Record<>("job-a/1", "decoded", 5L), new IllegalStateException("bug"));

        // then
        assertThat(response.result()).isEqualTo(Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).hasSize(1);
        final ProducerRecord<byte[], byte[]> record =
                response.deadLetterQueueRecords().get(0);
        assertThat(record.topic()).isEqualTo(DEAD_LETTERS);
        assertThat(record.key()).isEqualTo(KEY);
        final DeadLetter letter =
                AvroSerdes.of(DeadLetter.class, config, false).deserializer().deserialize(DEAD_LETTERS, record.value());
        assertThat(letter.getReason()).isEqualTo(DeadLetterReason.OTHER);
        assertThat(letter.getSourceTopic()).isEqualTo(SOURCE);
        assertThat(letter.getPartition()).isEqualTo(1);
        assertThat(letter.getOffset()).isEqualTo(99);
        assertThat(bytes(letter.getOriginalBytes())).isEqualTo(VALUE);
        assertThat(letter.getError()).isEqualTo("IllegalStateException bug");
    }

    static Stream<Exception> environmentFailures() {
        return Stream.of(
                new SchemaRegistryException(
                        "No schema registry reachable",
                        SchemaRegistryException.NO_RESPONSE,
                        SchemaRegistryException.NO_RESPONSE),
                new SerializationException("cannot register", new SchemaRegistryException("HTTP 503", 503, 50301)),
                new ProcessorStateException("RocksDB is gone"),
                new IllegalStateException("wrapped", new TimeoutException("broker")));
    }

    @ParameterizedTest
    @MethodSource("environmentFailures")
    void shouldFailSoThatTheRecordIsRetriedWhenTheEnvironmentFails(final Exception failure) {
        // given
        final DeadLetterProcessingHandler handler = configured();

        // when
        final Response response = handler.handleError(
                HandlerContext.of(SOURCE, 1, 99, KEY, VALUE), new Record<>("job-a/1", "decoded", 5L), failure);

        // then
        assertThat(response.result()).isEqualTo(Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    @Test
    void shouldFailWhenAPunctuationThrows() {
        // given
        final DeadLetterProcessingHandler handler = configured();
        final ErrorHandlerContext punctuation =
                new HandlerContext(null, -1, -1, "gradient-aggregator", new TaskId(1, 0), 5L, null, null);

        // when
        final Response response = handler.handleError(punctuation, null, new IllegalStateException("bug"));

        // then
        assertThat(response.result()).isEqualTo(Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    private DeadLetterProcessingHandler configured() {
        final DeadLetterProcessingHandler handler = new DeadLetterProcessingHandler();
        handler.configure(config);
        return handler;
    }
}
