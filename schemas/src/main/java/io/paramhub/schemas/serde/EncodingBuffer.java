package io.paramhub.schemas.serde;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * A thread's buffer for encoding one record at a time, kept between records: a record of a few hundred
 * KiB (a gradient or model shard) is written into memory already grown to its size and copied out once,
 * instead of growing a fresh stream from 32 bytes by doubling (about a dozen arrays and two copies of
 * the record each time). A buffer grown past {@link #KEPT_BYTES} is dropped after use.
 */
final class EncodingBuffer extends ByteArrayOutputStream {

    /** Largest buffer a thread keeps between records: the 8 MiB the embedded broker accepts. */
    static final int KEPT_BYTES = 8 * 1024 * 1024;

    private static final ThreadLocal<EncodingBuffer> BUFFERS = ThreadLocal.withInitial(EncodingBuffer::new);

    private BinaryEncoder encoder;

    private EncodingBuffer() {
        super(4096);
    }

    /** This thread's buffer, emptied. */
    static EncodingBuffer acquire() {
        final EncodingBuffer buffer = BUFFERS.get();
        buffer.reset();
        return buffer;
    }

    /** An Avro encoder writing straight into this buffer (reused from record to record). */
    BinaryEncoder encoder() {
        encoder = EncoderFactory.get().directBinaryEncoder(this, encoder);
        return encoder;
    }

    /** The bytes written since {@link #acquire}, copied out; a buffer grown too large is let go. */
    byte[] bytes() {
        final byte[] bytes = Arrays.copyOf(buf, count);
        if (buf.length > KEPT_BYTES) {
            BUFFERS.remove();
        }
        return bytes;
    }
}
