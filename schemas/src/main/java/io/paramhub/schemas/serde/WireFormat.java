package io.paramhub.schemas.serde;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Confluent's wire format of a serialized record: byte 0 is the magic byte 0, bytes 1–4 the schema id
 * as a big-endian int, then the Avro binary encoding of the record.
 */
public final class WireFormat {

    /** Value of byte 0. */
    public static final byte MAGIC_BYTE = 0;
    /** Bytes before the Avro payload: magic byte and schema id. */
    public static final int HEADER_SIZE = 1 + Integer.BYTES;

    private WireFormat() {}

    /** The five header bytes for schema {@code id}. */
    public static byte[] header(final int id) {
        return ByteBuffer.allocate(HEADER_SIZE).put(MAGIC_BYTE).putInt(id).array();
    }

    /** Writes the five header bytes for schema {@code id} to {@code out}. */
    public static void writeHeader(final ByteArrayOutputStream out, final int id) {
        out.write(MAGIC_BYTE);
        out.write(id >>> 24);
        out.write(id >>> 16);
        out.write(id >>> 8);
        out.write(id);
    }

    /**
     * The schema id in the header of {@code data}, read from {@code topic}.
     *
     * @throws SerializationException when {@code data} is too short or does not start with the magic byte
     */
    public static int schemaId(final String topic, final byte[] data) {
        return schemaId(topic, data, 0, data.length);
    }

    /** The schema id in the header of the record in {@code data[offset, offset + length)}, read from {@code topic}. */
    public static int schemaId(final String topic, final byte[] data, final int offset, final int length) {
        if (length < HEADER_SIZE) {
            throw new SerializationException("Record of topic " + topic + " is too short for the Confluent wire"
                    + " format: " + length + " bytes, expected at least " + HEADER_SIZE
                    + " (magic byte and schema id)");
        }
        if (data[offset] != MAGIC_BYTE) {
            throw new SerializationException("Unknown magic byte " + data[offset] + " in record of topic " + topic
                    + ", expected " + MAGIC_BYTE + " (Confluent wire format)");
        }
        return ByteBuffer.wrap(data, offset + 1, Integer.BYTES).getInt();
    }
}
