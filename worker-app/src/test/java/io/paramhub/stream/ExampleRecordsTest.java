package io.paramhub.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.Test;

class ExampleRecordsTest {

    private static GenericRecord decode(final byte[] value, final Schema schema) throws IOException {
        return new GenericDatumReader<GenericRecord>(schema)
                .read(null, DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, null));
    }

    @Test
    void shouldWriteTheWireFormatThatAGenericReaderDecodesWhenClassifying() throws IOException {
        // given: features of row 1 of a 2 x 3 matrix
        final ExampleRecords records = new ExampleRecords(42, true);
        final float[] x = {9, 9, 9, 0.5f, -1.25f, 3e-7f};

        // when
        final byte[] value = records.encode(12_345_678_901L, x, 3, 3, 4);

        // then: magic byte 0, schema id 42, then the record
        assertThat(value[0]).isZero();
        assertThat(ByteBuffer.wrap(value, 1, 4).getInt()).isEqualTo(42);
        final GenericRecord record = decode(value, ExampleRecords.schema(true));
        assertThat(record.get("id")).isEqualTo(12_345_678_901L);
        assertThat(record.get("features")).asList().containsExactly(0.5f, -1.25f, 3e-7f);
        assertThat(record.get("label")).isEqualTo(4);
    }

    @Test
    void shouldWriteADoubleLabelWhenRegressing() throws IOException {
        // given
        final ExampleRecords records = new ExampleRecords(7, false);

        // when
        final byte[] value = records.encode(0, new float[] {1.5f}, 0, 1, -2.75);

        // then
        final GenericRecord record = decode(value, ExampleRecords.schema(false));
        assertThat(record.get("id")).isEqualTo(0L);
        assertThat(record.get("features")).asList().containsExactly(1.5f);
        assertThat(record.get("label")).isEqualTo(-2.75);
    }

    @Test
    void shouldNameTheRecordAndTypeTheLabelByTheTask() {
        // when
        final Schema classification = ExampleRecords.schema(true);
        final Schema regression = ExampleRecords.schema(false);

        // then
        assertThat(classification.getFullName()).isEqualTo("io.paramhub.stream.Example");
        assertThat(classification.getField("id").schema().getType()).isEqualTo(Schema.Type.LONG);
        assertThat(classification.getField("features").schema().getElementType().getType())
                .isEqualTo(Schema.Type.FLOAT);
        assertThat(classification.getField("label").schema().getType()).isEqualTo(Schema.Type.INT);
        assertThat(regression.getField("label").schema().getType()).isEqualTo(Schema.Type.DOUBLE);
    }
}
