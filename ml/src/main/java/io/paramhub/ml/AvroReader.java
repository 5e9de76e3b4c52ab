package io.paramhub.ml;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads an Avro container file of records into {@link RawRows}, each record's features and label taken by
 * {@link ExampleFields}. Any departure stops the read with a {@link DataFileException} at
 * {@code record N, field F}; nothing is skipped.
 */
final class AvroReader {

    private final Path file;
    private final ExampleFields fields;
    private final String firstFeature;

    /** A reader of {@code file} taking the features from {@code featureFields} and the label from {@code labelField}. */
    AvroReader(final Path file, final List<String> featureFields, final String labelField) {
        this.file = file;
        this.fields = new ExampleFields(featureFields, labelField);
        this.firstFeature = featureFields.get(0);
    }

    /** Every record's features and label; {@code width} > 0 is the number of features every record must have. */
    RawRows read(final int width) {
        long record = 0;
        try (InputStream in = Files.newInputStream(file);
                DataFileStream<GenericRecord> records = new DataFileStream<>(in, new GenericDatumReader<>())) {
            final ExampleFields.Reader reader = reader(records);
            RawRows rows = width > 0 ? rows(width) : null;
            double[] values = new double[Math.max(width, 1)];
            GenericRecord reused = null;
            while (records.hasNext()) {
                reused = records.next(reused);
                record++;
                try {
                    values = reader.features(reused, values);
                    final int count = reader.count(reused);
                    if (rows == null) {
                        rows = rows(count);
                    } else if (count != rows.features()) {
                        throw at(record, firstFeature, count + " features, expected " + rows.features());
                    }
                    rows.add(values, 0, reader.label(reused), record);
                } catch (final ExampleException e) {
                    throw at(record, e.field(), e.getMessage());
                }
            }
            if (rows == null || rows.size() == 0) {
                throw new DataFileException(file, "", "holds no records");
            }
            return rows;
        } catch (final IOException e) {
            throw record == 0 ? DataFileException.of(file, e) : at(record, "", "unreadable: " + e.getMessage());
        } catch (final AvroRuntimeException e) {
            throw at(record + 1, "", "unreadable: " + e.getMessage());
        }
    }

    private ExampleFields.Reader reader(final DataFileStream<GenericRecord> records) {
        try {
            return fields.reader(records.getSchema());
        } catch (final ExampleException e) {
            throw new DataFileException(file, "", e.getMessage());
        }
    }

    private RawRows rows(final int features) {
        return new RawRows(file, features, record -> "record " + record + ", field " + fields.labelField());
    }

    private DataFileException at(final long record, final String field, final String problem) {
        return new DataFileException(file, "record " + record + (field.isEmpty() ? "" : ", field " + field), problem);
    }
}
