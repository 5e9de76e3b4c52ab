package io.paramhub.topology.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;

class ModelVersionFilterTest {

    private final List<ByteBuffer> decoded = new ArrayList<>();
    private final Deserializer<ModelShard> decoder = new Deserializer<>() {
        @Override
        public ModelShard deserialize(final String topic, final byte[] data) {
            decoded.add(ByteBuffer.wrap(data));
            return shard(data.length);
        }
    };

    @Test
    void shouldPassOverVersionsOlderThanTheNeededMinClockWithoutDecodingThem() {
        // given
        final AtomicLong needed = new AtomicLong(5);
        final ModelVersionFilter filter = new ModelVersionFilter(decoder, needed::get);

        // when
        final ModelShard older = filter.deserialize("model", ModelHeaders.of(4), ByteBuffer.wrap(new byte[] {1}));
        final ModelShard reaching = filter.deserialize("model", ModelHeaders.of(5), ByteBuffer.wrap(new byte[] {1, 2}));
        needed.set(10);
        final ModelShard olderNow = filter.deserialize("model", ModelHeaders.of(9), new byte[] {1, 2, 3});

        // then
        assertThat(older).isNull();
        assertThat(reaching.getMinClock()).isEqualTo(2);
        assertThat(olderNow).isNull();
        assertThat(decoded).hasSize(1);
    }

    @Test
    void shouldDecodeRecordsWithoutAUsableHeader() {
        // given: records written before the header existed, or with a header that is not 8 bytes
        final ModelVersionFilter filter = new ModelVersionFilter(decoder, () -> Long.MAX_VALUE);
        final Headers malformed = new RecordHeaders().add(ModelHeaders.MIN_CLOCK, new byte[] {7});

        // when
        final ModelShard bare = filter.deserialize("model", new RecordHeaders(), ByteBuffer.wrap(new byte[] {1}));
        final ModelShard odd = filter.deserialize("model", malformed, new byte[] {1, 2});

        // then
        assertThat(bare).isNotNull();
        assertThat(odd).isNotNull();
        assertThat(ModelHeaders.minClock(malformed)).isEqualTo(-1);
        assertThat(ModelHeaders.minClock(ModelHeaders.of(123_456_789_012L))).isEqualTo(123_456_789_012L);
    }

    /** A stand-in for the decoded record: its minClock says how many bytes were decoded. */
    private static ModelShard shard(final long minClock) {
        return ModelShard.newBuilder()
                .setJob("job")
                .setShard(0)
                .setShards(1)
                .setFirstParameter(0)
                .setVersion(minClock)
                .setMinClock(minClock)
                .setClocks(Map.of())
                .setShares(Map.of())
                .setPlanEpoch(-1)
                .setValues(FloatPacking.pack(new float[] {1f}))
                .setUpdatedAt(Instant.EPOCH)
                .setThreads(Map.of())
                .build();
    }
}
