package io.paramhub.ml;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads an Avro container file of records into {@link RawRows}: the features from one field of
 * {@code array<float|double|int|long>}, of {@code bytes} (or {@code fixed}) holding float32 little-endian, or
 * from a list of numeric fields; the label from one field of any scalar type (int, long, string, enum,
 * boolean, float, double). A field may be a union with {@code null}, but a null value is an error. Any
 * departure stops the read with a {@link DataFileException} at {@code record N, field F}; nothing is skipped.
 */
final class AvroReader {

    private static final Set<Schema.Type> NUMBERS =
            EnumSet.of(Schema.Type.INT, Schema.Type.LONG, Schema.Type.FLOAT, Schema.Type.DOUBLE);
    private static final Set<Schema.Type> LABELS = EnumSet.of(
            Schema.Type.INT,
            Schema.Type.LONG,
            Schema.Type.FLOAT,
            Schema.Type.DOUBLE,
            Schema.Type.STRING,
            Schema.Type.ENUM,
            Schema.Type.BOOLEAN);

    private final Path file;
    private final List<String> featureFields;
    private final String labelField;

    /** A reader of {@code file} taking the features from {@code featureFields} and the label from {@code labelField}. */
    AvroReader(final Path file, final List<String> featureFields, final String labelField) {
        this.file = file;
        this.featureFields = List.copyOf(featureFields);
        this.labelField = labelField;
    }

    /** Every record's features and label; {@code width} > 0 is the number of features every record must have. */
    RawRows read(final int width) {
        long record = 0;
        try (InputStream in = Files.newInputStream(file);
                DataFileStream<GenericRecord> records = new DataFileStream<>(in, new GenericDatumReader<>())) {
            final Schema schema = records.getSchema();
            if (schema.getType() != Schema.Type.RECORD) {
                throw new DataFileException(file, "", "holds " + schema.getType() + " values, not records");
            }
            final boolean vector = resolve(schema);
            RawRows rows = width > 0 ? rows(width) : null;
            double[] values = new double[Math.max(width, featureFields.size())];
            GenericRecord reused = null;
            while (records.hasNext()) {
                reused = records.next(reused);
                record++;
                values = vector ? vector(reused, record, values) : scalars(reused, record, values);
                final int count = vector ? count(reused) : featureFields.size();
                if (rows == null) {
                    rows = rows(count);
                } else if (count != rows.features()) {
                    throw at(record, featureFields.get(0), count + " features, expected " + rows.features());
                }
                rows.add(values, 0, label(reused, record), record);
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

    private RawRows rows(final int features) {
        return new RawRows(file, features, record -> "record " + record + ", field " + labelField);
    }

    /** Checks the fields; whether the features are one vector field rather than scalar fields. */
    private boolean resolve(final Schema schema) {
        final Schema.Field label = schema.getField(labelField);
        if (label == null) {
            throw new DataFileException(file, "", "no label field '" + labelField + "' among " + names(schema));
        }
        if (!LABELS.contains(type(label.schema()))) {
            throw new DataFileException(
                    file, "", "label field '" + labelField + "' is of type " + type(label.schema()) + ", not a scalar");
        }
        for (final String name : featureFields) {
            final Schema.Field field = schema.getField(name);
            if (field == null) {
                throw new DataFileException(file, "", "no feature field '" + name + "' among " + names(schema));
            }
            final Schema.Type type = type(field.schema());
            final boolean vector = type == Schema.Type.BYTES
                    || type == Schema.Type.FIXED
                    || type == Schema.Type.ARRAY
                            && NUMBERS.contains(type(nonNull(field.schema()).getElementType()));
            if (vector && featureFields.size() == 1) {
                return true;
            }
            if (!NUMBERS.contains(type)) {
                throw new DataFileException(
                        file,
                        "",
                        "feature field '" + name + "' is of type " + type + "; the features are one field of "
                                + "array<float|double>, bytes of float32 LE, or numeric fields");
            }
        }
        return false;
    }

    private double[] vector(final GenericRecord record, final long number, final double[] values) {
        final String name = featureFields.get(0);
        final Object value = present(record, name, number);
        if (value instanceof List<?> list) {
            final double[] out = values.length >= list.size() ? values : new double[list.size()];
            for (int j = 0; j < list.size(); j++) {
                if (!(list.get(j) instanceof Number element)) {
                    throw at(number, name, "value " + (j + 1) + " is null");
                }
                out[j] = finite(element.doubleValue(), number, name);
            }
            return out;
        }
        final ByteBuffer bytes =
                value instanceof GenericFixed fixed ? ByteBuffer.wrap(fixed.bytes()) : ((ByteBuffer) value).duplicate();
        if (bytes.remaining() % Float.BYTES != 0) {
            throw at(number, name, bytes.remaining() + " bytes, not a whole number of float32 values");
        }
        bytes.order(ByteOrder.LITTLE_ENDIAN);
        final int count = bytes.remaining() / Float.BYTES;
        final double[] out = values.length >= count ? values : new double[count];
        for (int j = 0; j < count; j++) {
            out[j] = finite(bytes.getFloat(), number, name);
        }
        return out;
    }

    private int count(final GenericRecord record) {
        final Object value = record.get(featureFields.get(0));
        if (value instanceof List<?> list) {
            return list.size();
        }
        final int bytes = value instanceof GenericFixed fixed ? fixed.bytes().length : ((ByteBuffer) value).remaining();
        return bytes / Float.BYTES;
    }

    private double[] scalars(final GenericRecord record, final long number, final double[] values) {
        for (int j = 0; j < featureFields.size(); j++) {
            final String name = featureFields.get(j);
            values[j] = finite(((Number) present(record, name, number)).doubleValue(), number, name);
        }
        return values;
    }

    private String label(final GenericRecord record, final long number) {
        return present(record, labelField, number).toString();
    }

    private Object present(final GenericRecord record, final String field, final long number) {
        final Object value = record.get(field);
        if (value == null) {
            throw at(number, field, "null");
        }
        return value;
    }

    private double finite(final double value, final long number, final String field) {
        if (!Double.isFinite(value)) {
            throw at(number, field, "value " + value + " is not a finite number");
        }
        return value;
    }

    private DataFileException at(final long record, final String field, final String problem) {
        return new DataFileException(file, "record " + record + (field.isEmpty() ? "" : ", field " + field), problem);
    }

    private static Schema.Type type(final Schema schema) {
        return nonNull(schema).getType();
    }

    /** The schema, or the one branch of a union with null besides null. */
    private static Schema nonNull(final Schema schema) {
        if (schema.getType() != Schema.Type.UNION) {
            return schema;
        }
        final List<Schema> branches = new ArrayList<>();
        for (final Schema branch : schema.getTypes()) {
            if (branch.getType() != Schema.Type.NULL) {
                branches.add(branch);
            }
        }
        return branches.size() == 1 ? branches.get(0) : schema;
    }

    private static List<String> names(final Schema schema) {
        return schema.getFields().stream().map(Schema.Field::name).toList();
    }
}
