package io.paramhub.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.ml.ExampleFields;
import io.paramhub.schemas.registry.InMemorySchemaRegistryClient;
import io.paramhub.schemas.serde.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class TopicSampleTest {

    private static final Schema SCHEMA = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Reading\",\"fields\":["
                    + "{\"name\":\"x\",\"type\":{\"type\":\"array\",\"items\":\"float\"}},"
                    + "{\"name\":\"y\",\"type\":{\"type\":\"enum\",\"name\":\"Level\","
                    + "\"symbols\":[\"LOW\",\"HIGH\",\"MID\"]}}]}");

    private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    private final int id = registry.register("readings-value", SCHEMA);
    private final TopicSample sample =
            new TopicSample(new DataTopicValues(registry, new ExampleFields(List.of("x"), "y")));

    @Test
    void shouldTakeTheFeatureCountAndTheEnumSymbolsOfTheFirstExample() throws IOException {
        // when
        sample.add(0, 0, reading(List.of(1f, 2f, 3f), "HIGH"));
        sample.add(0, 1, reading(List.of(4f, 5f, 6f), "LOW"));
        sample.add(1, 0, reading(List.of(7f, 8f, 9f), "HIGH"));

        // then: the symbols in the enum's order, not in the order seen
        final TopicSample.Seen seen = sample.seen();
        assertThat(seen.records()).isEqualTo(3);
        assertThat(seen.decoded()).isEqualTo(3);
        assertThat(seen.inputs()).isEqualTo(3);
        assertThat(seen.enumSymbols()).containsExactly("LOW", "HIGH", "MID");
        assertThat(seen.labels()).isEqualTo(Map.of("HIGH", 2, "LOW", 1));
        assertThat(seen.firstProblem()).isEmpty();
    }

    @Test
    void shouldSkipRecordsThatAreNoExamplesAndKeepTheFirstProblemWhenSomeCannotBeRead() throws IOException {
        // given: a tombstone, a value without the wire format, a NaN feature, an unknown schema id
        final byte[] unknownSchema = reading(List.of(1f), "LOW");
        unknownSchema[4] = 99;

        // when
        sample.add(0, 7, null);
        sample.add(0, 8, new byte[] {1, 2, 3, 4, 5, 6});
        sample.add(1, 3, reading(List.of(1f, Float.NaN), "LOW"));
        sample.add(1, 4, unknownSchema);
        sample.add(1, 5, reading(List.of(1f, 2f), "MID"));

        // then: only the last is an example; the first problem names where it was
        final TopicSample.Seen seen = sample.seen();
        assertThat(seen.records()).isEqualTo(5);
        assertThat(seen.decoded()).isEqualTo(1);
        assertThat(seen.inputs()).isEqualTo(2);
        assertThat(seen.labels()).isEqualTo(Map.of("MID", 1));
        assertThat(seen.firstProblem()).isEqualTo("partition 0, offset 7: MALFORMED: no value (a tombstone)");
    }

    @Test
    void shouldSeeNoExampleWhenNoRecordIsOne() {
        // when
        sample.add(2, 0, new byte[] {0, 0, 0, 0, 42});

        // then
        final TopicSample.Seen seen = sample.seen();
        assertThat(seen.decoded()).isZero();
        assertThat(seen.inputs()).isEqualTo(-1);
        assertThat(seen.firstProblem()).startsWith("partition 2, offset 0: UNKNOWN_SCHEMA: schema id 42");
    }

    private byte[] reading(final List<Float> x, final String level) throws IOException {
        final GenericRecord record = new GenericData.Record(SCHEMA);
        record.put("x", x);
        record.put("y", new GenericData.EnumSymbol(SCHEMA.getField("y").schema(), level));
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        WireFormat.writeHeader(out, id);
        final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(SCHEMA).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
