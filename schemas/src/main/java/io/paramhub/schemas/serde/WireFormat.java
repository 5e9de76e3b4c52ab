package io.paramhub.schemas.serde;

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

    /**
     * The schema id in the header of {@code data}, read from {@code topic}.
     *
     * @throws SerializationException when {@code data} is too short or does not start with the magic byte
     */
    public static int schemaId(final String topic, final byte[] data) {
        if (data.length < HEADER_SIZE) {
            throw new SerializationException("Record of topic " + topic + " is too short for the Confluent wire"
                    + " format: " + data.length + " bytes, expected at least " + HEADER_SIZE
                    + " (magic byte and schema id)");
        }
        if (data[0] != MAGIC_BYTE) {
            throw new SerializationException("Unknown magic byte " + data[0] + " in record of topic " + topic
                    + ", expected " + MAGIC_BYTE + " (Confluent wire format)");
        }
        return ByteBuffer.wrap(data, 1, Integer.BYTES).getInt();
    }
}
