package io.paramhub.topology.client;

import java.nio.ByteBuffer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The header the aggregator puts on each {@code model} record: {@value #MIN_CLOCK}, the version's {@code minClock}
 * as an 8-byte big-endian long, the same value as in the record. A reader that wants only some versions (the
 * demo's evaluator wants one a epoch) can pass over the others without decoding several hundred KiB of Avro.
 * Readers that do not know it ignore it; a record without it is simply decoded.
 */
public final class ModelHeaders {

    public static final String MIN_CLOCK = "paramhub.min-clock";

    private ModelHeaders() {}

    /** The headers for a version whose {@code minClock} is {@code minClock}. */
    public static Headers of(final long minClock) {
        return new RecordHeaders()
                .add(
                        MIN_CLOCK,
                        ByteBuffer.allocate(Long.BYTES).putLong(minClock).array());
    }

    /** The {@code minClock} the headers carry, or -1 when they carry none (or a malformed one). */
    public static long minClock(final Headers headers) {
        if (headers == null) {
            return -1;
        }
        final Header header = headers.lastHeader(MIN_CLOCK);
        if (header == null || header.value() == null || header.value().length != Long.BYTES) {
            return -1;
        }
        return ByteBuffer.wrap(header.value()).getLong();
    }
}
