package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests the {@code avro:} data sets: features as an array, as float32 bytes or as numeric fields. */
class AvroProviderTest {

    private static final Schema SCHEMA = SchemaBuilder.record("Example")
            .fields()
            .name("pixels")
            .type()
            .array()
            .items()
            .floatType()
            .noDefault()
            .name("packed")
            .type()
            .bytesType()
            .noDefault()
            .requiredDouble("a")
            .requiredInt("b")
            .name("kind")
            .type()
            .nullable()
            .stringType()
            .noDefault()
            .endRecord();

    @TempDir
    Path dir;

    private Path avro(final String name, final Consumer<DataFileWriter<GenericRecord>> records) throws IOException {
        final Path file = dir.resolve(name);
        try (DataFileWriter<GenericRecord> writer = new DataFileWriter<>(new GenericDatumWriter<>(SCHEMA))) {
            writer.create(SCHEMA, file.toFile());
            records.accept(writer);
        }
        return file;
    }

    private static void append(final DataFileWriter<GenericRecord> writer, final float x, final String kind) {
        final GenericRecord record = new GenericData.Record(SCHEMA);
        record.put("pixels", List.of(x, x + 1));
        record.put(
                "packed",
                ByteBuffer.allocate(8)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .putFloat(x)
                        .putFloat(-x)
                        .flip());
        record.put("a", (double) x);
        record.put("b", 7);
        record.put("kind", kind);
        try {
            writer.append(record);
        } catch (final IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldReadTheFeaturesFromAnyOfTheirFormsWhenTheFieldsAreNamed() throws IOException {
        // given
        final Path file = avro("d.avro", writer -> {
            append(writer, 1, "shirt");
            append(writer, 2, "boot");
            append(writer, 3, "shirt");
        });
        final Path test = avro("t.avro", writer -> append(writer, 4, "boot"));
        final String common = ",label=kind,test=" + test + ",standardize=false";

        // when
        final TrainTest array = DataSources.load("avro:" + file + ",features=pixels" + common);
        final TrainTest bytes = DataSources.load("avro:" + file + ",features=packed" + common);
        final TrainTest fields = DataSources.load("avro:" + file + ",features=a+b" + common);

        // then
        assertThat(array.train().x()).containsExactly(1, 2, 2, 3, 3, 4);
        assertThat(bytes.train().x()).containsExactly(1, -1, 2, -2, 3, -3);
        assertThat(fields.train().x()).containsExactly(1, 7, 2, 7, 3, 7);
        assertThat(array.preprocessing().classLabels()).containsExactly("boot", "shirt");
        assertThat(array.train().y()).containsExactly(1, 0, 1);
        assertThat(array.test().y()).containsExactly(0);
    }

    @Test
    void shouldNameTheRecordAndFieldWhenALabelIsNullOrAFieldIsMissing() throws IOException {
        // given
        final Path file = avro("d.avro", writer -> {
            append(writer, 1, "shirt");
            append(writer, 2, null);
        });

        // when / then
        assertThatThrownBy(() -> DataSources.load("avro:" + file + ",features=pixels,label=kind"))
                .isInstanceOf(DataFileException.class)
                .hasMessage(file + ":record 2, field kind: null");
        assertThatThrownBy(() -> DataSources.load("avro:" + file + ",features=pixels"))
                .hasMessage(file + ": no label field 'label' among [pixels, packed, a, b, kind]");
        assertThatThrownBy(() -> DataSources.load("avro:" + file + ",features=kind,label=b"))
                .hasMessageContaining("feature field 'kind' is of type STRING");
        assertThatThrownBy(() -> DataSources.files("avro:" + file)).hasMessageContaining("features= must name");
    }
}
