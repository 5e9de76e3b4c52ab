package io.paramhub.ml;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

/**
 * The features and label of Avro records, by field name: the features from one field of
 * {@code array<float|double|int|long>}, of {@code bytes} (or {@code fixed}) holding float32 little-endian, or
 * from a list of numeric fields; the label from one field of any scalar type (int, long, string, enum, boolean,
 * float, double). A field may be a union with {@code null}, but a null value is refused. Shared by the
 * {@code avro:} file provider and the workers of a topic-mode job, which meet a writer schema per record.
 */
public final class ExampleFields {

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

    private final List<String> featureFields;
    private final String labelField;

    /** Features from {@code featureFields} (one vector field, or numeric fields), the label from {@code labelField}. */
    public ExampleFields(final List<String> featureFields, final String labelField) {
        if (featureFields.isEmpty()) {
            throw new IllegalArgumentException("at least one feature field is needed");
        }
        this.featureFields = List.copyOf(featureFields);
        this.labelField = labelField;
    }

    /** The field holding the label. */
    public String labelField() {
        return labelField;
    }

    /**
     * How records of {@code schema} are read.
     *
     * @throws ExampleException ({@link ExampleProblem#SCHEMA}) when it is not a record, lacks a field, or a field's
     *     type cannot hold features or a label
     */
    public Reader reader(final Schema schema) {
        if (schema.getType() != Schema.Type.RECORD) {
            throw new ExampleException(ExampleProblem.SCHEMA, "", "holds " + schema.getType() + " values, not records");
        }
        final Schema.Field label = schema.getField(labelField);
        if (label == null) {
            throw new ExampleException(
                    ExampleProblem.SCHEMA, "", "no label field '" + labelField + "' among " + names(schema));
        }
        if (!LABELS.contains(type(label.schema()))) {
            throw new ExampleException(
                    ExampleProblem.SCHEMA,
                    labelField,
                    "label field '" + labelField + "' is of type " + type(label.schema()) + ", not a scalar");
        }
        return new Reader(vector(schema), nonNull(label.schema()));
    }

    /** Whether the features are one vector field rather than scalar fields. */
    private boolean vector(final Schema schema) {
        for (final String name : featureFields) {
            final Schema.Field field = schema.getField(name);
            if (field == null) {
                throw new ExampleException(
                        ExampleProblem.SCHEMA, "", "no feature field '" + name + "' among " + names(schema));
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
                throw new ExampleException(
                        ExampleProblem.SCHEMA,
                        name,
                        "feature field '" + name + "' is of type " + type + "; the features are one field of "
                                + "array<float|double>, bytes of float32 LE, or numeric fields");
            }
        }
        return false;
    }

    /** Reads the features and label of records of one writer schema. */
    public final class Reader {

        private final boolean vector;
        private final Schema label;

        private Reader(final boolean vector, final Schema label) {
            this.vector = vector;
            this.label = label;
        }

        /** The label field's schema (for an enum, its symbols are the classes in order). */
        public Schema labelSchema() {
            return label;
        }

        /**
         * {@code record}'s features in {@code values} (a larger array when they do not fit); {@link #count} says how
         * many.
         *
         * @throws ExampleException for a null field or element ({@link ExampleProblem#MALFORMED}), bytes that are not
         *     whole float32 values ({@link ExampleProblem#WRONG_LENGTH}) or a value that is not finite
         *     ({@link ExampleProblem#NON_FINITE})
         */
        public double[] features(final GenericRecord record, final double[] values) {
            return vector ? vectorOf(record, values) : scalarsOf(record, values);
        }

        /** How many features {@code record} has. */
        public int count(final GenericRecord record) {
            if (!vector) {
                return featureFields.size();
            }
            final Object value = record.get(featureFields.get(0));
            if (value instanceof List<?> list) {
                return list.size();
            }
            final int bytes =
                    value instanceof GenericFixed fixed ? fixed.bytes().length : ((ByteBuffer) value).remaining();
            return bytes / Float.BYTES;
        }

        /**
         * {@code record}'s label as text: a number as Avro holds it, a string, an enum symbol, {@code true} or
         * {@code false}.
         *
         * @throws ExampleException ({@link ExampleProblem#MALFORMED}) when it is null
         */
        public String label(final GenericRecord record) {
            return present(record, labelField).toString();
        }
    }

    private double[] vectorOf(final GenericRecord record, final double[] values) {
        final String name = featureFields.get(0);
        final Object value = present(record, name);
        if (value instanceof List<?> list) {
            final double[] out = values.length >= list.size() ? values : new double[list.size()];
            for (int j = 0; j < list.size(); j++) {
                if (!(list.get(j) instanceof Number element)) {
                    throw new ExampleException(ExampleProblem.MALFORMED, name, "value " + (j + 1) + " is null");
                }
                out[j] = finite(element.doubleValue(), name);
            }
            return out;
        }
        final ByteBuffer bytes =
                value instanceof GenericFixed fixed ? ByteBuffer.wrap(fixed.bytes()) : ((ByteBuffer) value).duplicate();
        if (bytes.remaining() % Float.BYTES != 0) {
            throw new ExampleException(
                    ExampleProblem.WRONG_LENGTH,
                    name,
                    bytes.remaining() + " bytes, not a whole number of float32 values");
        }
        bytes.order(ByteOrder.LITTLE_ENDIAN);
        final int count = bytes.remaining() / Float.BYTES;
        final double[] out = values.length >= count ? values : new double[count];
        for (int j = 0; j < count; j++) {
            out[j] = finite(bytes.getFloat(), name);
        }
        return out;
    }

    private double[] scalarsOf(final GenericRecord record, final double[] values) {
        final double[] out = values.length >= featureFields.size() ? values : new double[featureFields.size()];
        for (int j = 0; j < featureFields.size(); j++) {
            final String name = featureFields.get(j);
            out[j] = finite(((Number) present(record, name)).doubleValue(), name);
        }
        return out;
    }

    private static Object present(final GenericRecord record, final String field) {
        final Object value = record.get(field);
        if (value == null) {
            throw new ExampleException(ExampleProblem.MALFORMED, field, "null");
        }
        return value;
    }

    private static double finite(final double value, final String field) {
        if (!Double.isFinite(value)) {
            throw new ExampleException(ExampleProblem.NON_FINITE, field, "value " + value + " is not a finite number");
        }
        return value;
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
