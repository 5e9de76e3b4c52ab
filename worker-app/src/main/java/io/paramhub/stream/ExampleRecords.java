package io.paramhub.stream;

import io.paramhub.schemas.serde.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * The values {@code paramhub stream} writes: records {@code io.paramhub.stream.Example} of {@link #schema}
 * ({@code id: long}, {@code features: array<float>}, {@code label: int} for a classification set or
 * {@code double} for regression), in the Confluent wire format with the id the schema is registered under. A
 * record is encoded straight from the data set's floats, in the Avro binary encoding of the schema (no boxed
 * {@code GenericRecord} per example); one encoder serves one thread.
 */
public final class ExampleRecords {

    /** Full name of the record. */
    public static final String NAME = "io.paramhub.stream.Example";
    /** The field of the example's running number. */
    public static final String ID = "id";
    /** The field of the features. */
    public static final String FEATURES = "features";
    /** The field of the class index or regression target. */
    public static final String LABEL = "label";

    private final int schemaId;
    private final boolean classification;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    private BinaryEncoder encoder;

    /** An encoder of values with schema id {@code schemaId}, of {@link #schema}({@code classification}). */
    public ExampleRecords(final int schemaId, final boolean classification) {
        this.schemaId = schemaId;
        this.classification = classification;
    }

    /** The value schema: an {@code int} label for classification, a {@code double} one for regression. */
    public static Schema schema(final boolean classification) {
        final SchemaBuilder.FieldAssembler<Schema> fields = SchemaBuilder.record(NAME)
                .doc("A training example written by paramhub stream.")
                .fields()
                .name(ID)
                .doc("The example's running number in the stream, from 0.")
                .type()
                .longType()
                .noDefault()
                .name(FEATURES)
                .type()
                .array()
                .items()
                .floatType()
                .noDefault();
        final SchemaBuilder.FieldTypeBuilder<Schema> label = fields.name(LABEL)
                .doc(classification ? "The class index, from 0." : "The regression target.")
                .type();
        if (classification) {
            return label.intType().noDefault().endRecord();
        }
        return label.doubleType().noDefault().endRecord();
    }

    /**
     * Example {@code id} with features {@code x[offset, offset + length)} and {@code label} (a class index when
     * classifying), as a value in the wire format.
     */
    public byte[] encode(final long id, final float[] x, final int offset, final int length, final double label) {
        out.reset();
        WireFormat.writeHeader(out, schemaId);
        encoder = EncoderFactory.get().directBinaryEncoder(out, encoder);
        try {
            encoder.writeLong(id);
            encoder.writeArrayStart();
            encoder.setItemCount(length);
            for (int j = offset; j < offset + length; j++) {
                encoder.startItem();
                encoder.writeFloat(x[j]);
            }
            encoder.writeArrayEnd();
            if (classification) {
                encoder.writeInt((int) label);
            } else {
                encoder.writeDouble(label);
            }
            encoder.flush();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot encode example " + id, e);
        }
        return out.toByteArray();
    }
}
