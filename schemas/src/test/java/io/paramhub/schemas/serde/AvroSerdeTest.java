package io.paramhub.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.schemas.registry.InMemorySchemaRegistryClient;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.schemas.registry.SchemaRegistryConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AvroSerdeTest {

    private static final String TOPIC = "gradients";
    private static final String SCOPE = "avro-serde-test";

    private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();

    static Stream<SpecificRecord> everyRecordType() {
        return SampleRecords.all().stream();
    }

    @AfterEach
    void dropScope() {
        SchemaRegistryClients.dropScope(SCOPE);
    }

    @ParameterizedTest
    @MethodSource("everyRecordType")
    void shouldRoundTripWhenRecordIsAnyGeneratedType(final SpecificRecord record) {
        // given
        final AvroSerde<SpecificRecord> serde = serdeOf(record);

        // when
        final byte[] bytes = serde.serializer().serialize(TOPIC, record);
        final SpecificRecord read = serde.deserializer().deserialize(TOPIC, bytes);

        // then
        assertThat(read).isEqualTo(record).isInstanceOf(record.getClass());
        assertThat(registry.versions(TOPIC + "-value")).contains(record.getSchema());
    }

    @Test
    void shouldWriteMagicByteAndSchemaIdWhenSerializing() {
        // given
        registry.register("other-value", JobSpec.getClassSchema());
        final AvroSerde<GradientShard> serde = AvroSerdes.of(GradientShard.class, registry, Map.of(), false);

        // when
        final byte[] bytes = serde.serializer().serialize(TOPIC, SampleRecords.gradientShard());

        // then
        final int id = registry.lookupId(TOPIC + "-value", GradientShard.getClassSchema());
        assertThat(id).isEqualTo(2);
        assertThat(bytes[0]).isEqualTo((byte) 0);
        assertThat(Arrays.copyOfRange(bytes, 1, 5)).containsExactly(0, 0, 0, 2);
        assertThat(WireFormat.schemaId(TOPIC, bytes)).isEqualTo(id);
    }

    @Test
    void shouldRegisterUnderKeySubjectWhenConfiguredForKeys() {
        // given
        final AvroSerde<WorkerStatus> serde = AvroSerdes.of(WorkerStatus.class, registry, Map.of(), true);

        // when
        serde.serializer().serialize("membership", SampleRecords.workerStatus());

        // then
        assertThat(registry.versions("membership-key")).containsExactly(WorkerStatus.getClassSchema());
        assertThat(registry.versions("membership-value")).isEmpty();
    }

    @Test
    void shouldFailWhenSchemaIsNotRegisteredAndAutoRegisterIsOff() {
        // given
        final AvroSerde<GradientShard> serde = AvroSerdes.of(
                GradientShard.class, registry, Map.of(SchemaRegistryConfig.AUTO_REGISTER_SCHEMAS, "false"), false);

        // when / then
        assertThatThrownBy(() -> serde.serializer().serialize(TOPIC, SampleRecords.gradientShard()))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("looking up")
                .hasMessageContaining("gradients-value");
    }

    @Test
    void shouldUseRegisteredIdWhenAutoRegisterIsOff() {
        // given
        registry.register("unrelated-value", JobSpec.getClassSchema());
        final int id = registry.register(TOPIC + "-value", GradientShard.getClassSchema());
        final AvroSerde<GradientShard> serde = AvroSerdes.of(
                GradientShard.class, registry, Map.of(SchemaRegistryConfig.AUTO_REGISTER_SCHEMAS, false), false);

        // when
        final byte[] bytes = serde.serializer().serialize(TOPIC, SampleRecords.gradientShard());

        // then
        assertThat(WireFormat.schemaId(TOPIC, bytes)).isEqualTo(id);
        assertThat(serde.deserializer().deserialize(TOPIC, bytes)).isEqualTo(SampleRecords.gradientShard());
    }

    @Test
    void shouldPassNullThroughWhenRecordIsNull() {
        // given
        final AvroSerde<GradientShard> serde = AvroSerdes.of(GradientShard.class, registry, Map.of(), false);

        // when / then
        assertThat(serde.serializer().serialize(TOPIC, null)).isNull();
        assertThat(serde.deserializer().deserialize(TOPIC, null)).isNull();
    }

    @Test
    void shouldFailClearlyWhenMagicByteIsUnknown() {
        // given
        final AvroSerde<GradientShard> serde = AvroSerdes.of(GradientShard.class, registry, Map.of(), false);
        final byte[] bytes = serde.serializer().serialize(TOPIC, SampleRecords.gradientShard());
        bytes[0] = 7;

        // when / then
        assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, bytes))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Unknown magic byte 7")
                .hasMessageContaining(TOPIC);
    }

    @Test
    void shouldFailClearlyWhenInputIsShorterThanHeader() {
        // given
        final AvroSerde<GradientShard> serde = AvroSerdes.of(GradientShard.class, registry, Map.of(), false);

        // when / then
        assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, new byte[] {0, 0, 1}))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("too short")
                .hasMessageContaining("3 bytes");
    }

    @Test
    void shouldNameTheIdWhenSchemaIdIsUnknown() {
        // given
        final AvroSerde<GradientShard> serde = AvroSerdes.of(GradientShard.class, registry, Map.of(), false);
        final byte[] bytes =
                ByteBuffer.allocate(6).put((byte) 0).putInt(99).put((byte) 0).array();

        // when / then
        assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, bytes))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("schema id 99")
                .hasMessageContaining(TOPIC);
    }

    @Test
    void shouldFillDefaultsWhenWriterSchemaIsOlder() throws IOException {
        // given
        final Schema older = new Schema.Parser().parse("""
            {"type": "record", "name": "IterationTelemetry", "namespace": "io.paramhub.avro", "fields": [
              {"name": "job", "type": "string"}, {"name": "worker", "type": "string"},
              {"name": "clock", "type": "long"}, {"name": "samples", "type": "int"},
              {"name": "computeMs", "type": "double"}, {"name": "waitMs", "type": "double"},
              {"name": "threads", "type": "int"}, {"name": "batchShare", "type": "double"},
              {"name": "timestamp", "type": {"type": "long", "logicalType": "timestamp-millis"}}]}""");
        final GenericRecord old = new GenericData.Record(older);
        old.put("job", "mnist-1");
        old.put("worker", "w-1");
        old.put("clock", 3L);
        old.put("samples", 85);
        old.put("computeMs", 12.5);
        old.put("waitMs", 1.5);
        old.put("threads", 2);
        old.put("batchShare", 0.33);
        old.put("timestamp", SampleRecords.AT.toEpochMilli());
        final byte[] bytes = encode(registry.register("telemetry-value", older), old);
        final AvroSerde<IterationTelemetry> serde = AvroSerdes.of(IterationTelemetry.class, registry, Map.of(), false);

        // when
        final IterationTelemetry read = serde.deserializer().deserialize("telemetry", bytes);

        // then
        assertThat(read.getCommandEpoch()).isEqualTo(-1L);
        assertThat(read.getLoss()).isEqualTo(0.0);
        assertThat(read.getTimestamp()).isEqualTo(SampleRecords.AT);
        assertThat(read.getSamples()).isEqualTo(85);
    }

    @Test
    void shouldUseEnumDefaultWhenWriterHasNewerSymbolAndField() throws IOException {
        // given
        final Schema newer = new Schema.Parser().parse("""
            {"type": "record", "name": "DeadLetter", "namespace": "io.paramhub.avro", "fields": [
              {"name": "sourceTopic", "type": "string"}, {"name": "partition", "type": "int"},
              {"name": "offset", "type": "long"},
              {"name": "reason", "type": {"type": "enum", "name": "DeadLetterReason",
                "symbols": ["OTHER", "MALFORMED", "QUOTA_EXCEEDED"], "default": "OTHER"}},
              {"name": "error", "type": "string"},
              {"name": "originalBytes", "type": ["null", "bytes"], "default": null},
              {"name": "retries", "type": "int", "default": 0},
              {"name": "timestamp", "type": {"type": "long", "logicalType": "timestamp-millis"}}]}""");
        final GenericRecord record = new GenericData.Record(newer);
        record.put("sourceTopic", "gradients");
        record.put("partition", 1);
        record.put("offset", 5L);
        record.put("reason", new GenericData.EnumSymbol(newer.getField("reason").schema(), "QUOTA_EXCEEDED"));
        record.put("error", "too many");
        record.put("originalBytes", null);
        record.put("retries", 3);
        record.put("timestamp", SampleRecords.AT.toEpochMilli());
        final byte[] bytes = encode(registry.register("dead-letters-value", newer), record);
        final AvroSerde<DeadLetter> serde = AvroSerdes.of(DeadLetter.class, registry, Map.of(), false);

        // when
        final DeadLetter read = serde.deserializer().deserialize("dead-letters", bytes);

        // then
        assertThat(read.getReason()).isEqualTo(DeadLetterReason.OTHER);
        assertThat(read.getError()).isEqualTo("too many");
        assertThat(read.getTimestamp()).isEqualTo(SampleRecords.AT);
    }

    @Test
    void shouldReadJobSpecWrittenBeforeLearningRateScheduleAsConstantRate() throws IOException {
        // given: a job written with JobSpec as it was before learningRateSchedule and decayClocks
        final Schema.Parser parser = new Schema.Parser();
        parser.parse(SyncMode.getClassSchema().toString());
        parser.parse(OptimizerKind.getClassSchema().toString());
        final Schema older;
        try (InputStream in =
                getClass().getResourceAsStream("/avro-history/JobSpec-before-learning-rate-schedule.avsc")) {
            older = parser.parse(in);
        }
        final JobSpec current = SampleRecords.jobSpec();
        final GenericRecord old = new GenericData.Record(older);
        for (final Schema.Field field : older.getFields()) {
            final Object value = current.get(field.name());
            old.put(
                    field.name(),
                    value instanceof Enum<?> symbol
                            ? new GenericData.EnumSymbol(field.schema(), symbol.name())
                            : value instanceof Instant at ? at.toEpochMilli() : value);
        }
        final byte[] bytes = encode(registry.register("jobs-value", older), old);
        final AvroSerde<JobSpec> serde = AvroSerdes.of(JobSpec.class, registry, Map.of(), false);

        // when
        final JobSpec read = serde.deserializer().deserialize("jobs", bytes);

        // then: the registry's BACKWARD rule holds, and the old job trains at a constant rate
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(JobSpec.getClassSchema(), older)
                        .getType())
                .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
        assertThat(read.getLearningRateSchedule()).isEqualTo(LearningRateScheduleKind.CONSTANT);
        assertThat(read.getDecayClocks()).isZero();
        assertThat(read.getLearningRate()).isEqualTo(current.getLearningRate());
        assertThat(read.getJob()).isEqualTo(current.getJob());
    }

    @Test
    void shouldShareMockScopeWhenConfiguredWithMockUrl() {
        // given
        final Map<String, String> config = Map.of(SchemaRegistryConfig.SCHEMA_REGISTRY_URL, "mock://" + SCOPE);
        final AvroSerde<JobSpec> writer = AvroSerdes.of(JobSpec.class, config, false);
        final AvroSerde<JobSpec> reader = AvroSerdes.of(JobSpec.class, config, false);

        // when
        final byte[] bytes = writer.serializer().serialize("jobs", SampleRecords.jobSpec());

        // then
        assertThat(reader.deserializer().deserialize("jobs", bytes)).isEqualTo(SampleRecords.jobSpec());
        assertThat(SchemaRegistryClients.mockScope(SCOPE).versions("jobs-value"))
                .containsExactly(JobSpec.getClassSchema());
    }

    @SuppressWarnings("unchecked")
    private AvroSerde<SpecificRecord> serdeOf(final SpecificRecord record) {
        return AvroSerdes.of((Class<SpecificRecord>) record.getClass(), registry, Map.of(), false);
    }

    private static byte[] encode(final int id, final GenericRecord record) throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(WireFormat.header(id));
        final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    @Test
    void shouldWriteLatestVersionIdWhenUseLatestVersionIsSet() {
        // given
        registry.register("other-value", JobSpec.getClassSchema());
        final int id = registry.register(TOPIC + "-value", GradientShard.getClassSchema());
        final AvroSerde<GradientShard> serde = AvroSerdes.of(
                GradientShard.class,
                registry,
                Map.of(
                        SchemaRegistryConfig.AUTO_REGISTER_SCHEMAS, "false",
                        SchemaRegistryConfig.USE_LATEST_VERSION, "true"),
                false);

        // when
        final byte[] bytes = serde.serializer().serialize(TOPIC, SampleRecords.gradientShard());

        // then
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
    }

    @Test
    void shouldRefuseWhenLatestVersionIsAnotherSchema() {
        // given
        registry.register(TOPIC + "-value", JobSpec.getClassSchema());
        final AvroSerde<GradientShard> serde = AvroSerdes.of(
                GradientShard.class,
                registry,
                Map.of(
                        SchemaRegistryConfig.AUTO_REGISTER_SCHEMAS, "false",
                        SchemaRegistryConfig.USE_LATEST_VERSION, "true"),
                false);

        // when / then
        assertThatThrownBy(() -> serde.serializer().serialize(TOPIC, SampleRecords.gradientShard()))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("use.latest.version");
    }
}
