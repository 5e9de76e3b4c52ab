package io.paramhub.integration;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.ml.ShardLayout;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.schemas.serde.WireFormat;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.jobs.JobSpecs;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Utils;

/**
 * Bad records for {@code gradients} aimed at the shards of one job: each lands on the partition of a real
 * shard (so the shard's own task meets it, in order with the workers' gradients) and each is refused by
 * construction, never by chance: it is not Avro, or its header or length is broken, or it is well-formed
 * but has the wrong length, a non-finite value, an unknown job, a key that is not its shard's, or is a copy
 * of a gradient whose clock is already applied. So every one of them must come out of {@code dead-letters}.
 */
final class PoisonGradients {

    /** Worker named on the well-formed gradients this class makes up; no real worker has this id. */
    static final String INTRUDER = "intruder";

    private static final Set<DeadLetterReason> MALFORMED = Set.of(DeadLetterReason.MALFORMED);
    private static final float[] NON_FINITE = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
    private static final int KINDS = 13;

    private final String topic;
    private final JobSpec spec;
    private final ShardLayout layout;
    private final int partitions;
    private final Serializer<GradientShard> serializer;
    private final int schemaId;

    PoisonGradients(final TopicCatalog topics, final JobSpec spec, final int partitions) {
        this.topic = topics.gradients().name();
        this.spec = spec;
        this.layout = JobSpecs.layout(spec);
        this.partitions = partitions;
        this.serializer = topics.gradients().valueSerde().serializer();
        this.schemaId = WireFormat.schemaId(topic, serialize(gradient(spec.getJob(), 0, new float[1])));
    }

    Injection.Planned notAvro(final int shard, final byte[] bytes) {
        if (bytes.length > 0 && bytes[0] == WireFormat.MAGIC_BYTE) {
            throw new IllegalArgumentException("bytes starting with the magic byte could be Avro");
        }
        return toShard("not-avro", shard, bytes, MALFORMED);
    }

    /** A well-formed gradient whose header names schema {@code id}, which the registry does not know. */
    Injection.Planned unknownSchema(final int shard, final int id) {
        final byte[] bytes = serialize(gradient(spec.getJob(), shard, finite(new Random(id), layout.length(shard))));
        ByteBuffer.wrap(bytes).putInt(1, id);
        return toShard("unknown-schema", shard, bytes, Set.of(DeadLetterReason.UNKNOWN_SCHEMA));
    }

    Injection.Planned wrongLength(final int shard, final int values) {
        if (values == layout.length(shard)) {
            throw new IllegalArgumentException(values + " is the right length of shard " + shard);
        }
        return wellFormed("wrong-length", shard, new float[values], DeadLetterReason.WRONG_LENGTH);
    }

    Injection.Planned nonFinite(final int shard, final int index, final float value) {
        final float[] values = finite(new Random(index), layout.length(shard));
        values[index] = value;
        return wellFormed("non-finite", shard, values, DeadLetterReason.NON_FINITE);
    }

    /** A gradient of a job the aggregator never heard of, on the partition of one of the real job's shards. */
    Injection.Planned unknownJob(final String job, final int shard) {
        final GradientShard gradient = gradient(job, shard, finite(new Random(shard), layout.length(shard)));
        return new Injection.Planned(
                "unknown-job",
                topic,
                partitionOf(shard),
                ShardKeys.shard(job, shard),
                serialize(gradient),
                Set.of(DeadLetterReason.UNKNOWN_JOB));
    }

    /** The very record a worker sent for a clock the aggregator has applied. */
    Injection.Planned duplicate(final ConsumerRecord<String, byte[]> applied) {
        return new Injection.Planned(
                "duplicate",
                topic,
                applied.partition(),
                applied.key(),
                applied.value(),
                Set.of(DeadLetterReason.DUPLICATE));
    }

    /** One bad record of a kind drawn from {@code random}; {@code applied} are gradients of applied clocks. */
    Injection.Planned fuzz(final Random random, final List<ConsumerRecord<String, byte[]>> applied) {
        final int shard = random.nextInt(layout.shards());
        final int length = layout.length(shard);
        return switch (random.nextInt(KINDS)) {
            case 0 -> notAvro(shard, randomBytes(random, 1 + random.nextInt(64), true));
            case 1 -> toShard("empty", shard, new byte[0], MALFORMED);
            case 2 -> toShard("null", shard, null, MALFORMED);
            case 3 -> flippedHeader(shard, random);
            case 4 -> truncated(shard, random);
            case 5 -> headerAndGarbage(shard, random);
            case 6 -> wrongLength(shard, otherThan(random, length));
            case 7 -> wrongByteCount(shard, random);
            case 8 -> nonFinite(shard, random.nextInt(length), NON_FINITE[random.nextInt(NON_FINITE.length)]);
            case 9 -> nonFiniteLoss(shard, random);
            case 10 -> unknownJob("ghost-" + random.nextInt(1000), shard);
            case 11 -> keyOfAnotherShard(shard, random);
            default -> duplicate(applied.get(random.nextInt(applied.size())));
        };
    }

    /** A valid gradient with one bit of its magic byte or schema id flipped. */
    private Injection.Planned flippedHeader(final int shard, final Random random) {
        final byte[] bytes = serialize(gradient(spec.getJob(), shard, finite(random, layout.length(shard))));
        final int bit = random.nextInt(WireFormat.HEADER_SIZE * Byte.SIZE);
        bytes[bit / Byte.SIZE] ^= (byte) (1 << (bit % Byte.SIZE));
        // another id is unknown (404), or the id of another of our schemas, which cannot resolve to GradientShard
        return toShard(
                "flipped-header",
                shard,
                bytes,
                bit < Byte.SIZE ? MALFORMED : Set.of(DeadLetterReason.UNKNOWN_SCHEMA, DeadLetterReason.MALFORMED));
    }

    /** A valid gradient cut short: Avro runs out of bytes before its last field ends. */
    private Injection.Planned truncated(final int shard, final Random random) {
        final byte[] bytes = serialize(gradient(spec.getJob(), shard, finite(random, layout.length(shard))));
        return toShard("truncated", shard, Arrays.copyOf(bytes, random.nextInt(bytes.length)), MALFORMED);
    }

    /** GradientShard's own header, then garbage whose first byte reads as a negative string length. */
    private Injection.Planned headerAndGarbage(final int shard, final Random random) {
        final byte[] garbage = randomBytes(random, 1 + random.nextInt(64), false);
        garbage[0] = (byte) (1 + 2 * random.nextInt(64));
        final byte[] bytes = new byte[WireFormat.HEADER_SIZE + garbage.length];
        System.arraycopy(WireFormat.header(schemaId), 0, bytes, 0, WireFormat.HEADER_SIZE);
        System.arraycopy(garbage, 0, bytes, WireFormat.HEADER_SIZE, garbage.length);
        return toShard("header-and-garbage", shard, bytes, MALFORMED);
    }

    /** Values whose byte count is not a multiple of 4. */
    private Injection.Planned wrongByteCount(final int shard, final Random random) {
        final byte[] values =
                randomBytes(random, 4 * random.nextInt(2 * layout.length(shard)) + 1 + random.nextInt(3), false);
        final GradientShard gradient = GradientShard.newBuilder(gradient(spec.getJob(), shard, new float[0]))
                .setValues(ByteBuffer.wrap(values))
                .build();
        return toShard("wrong-byte-count", shard, serialize(gradient), Set.of(DeadLetterReason.WRONG_LENGTH));
    }

    private Injection.Planned nonFiniteLoss(final int shard, final Random random) {
        final GradientShard gradient = GradientShard.newBuilder(
                        gradient(spec.getJob(), shard, finite(random, layout.length(shard))))
                .setLoss(NON_FINITE[random.nextInt(NON_FINITE.length)])
                .build();
        return toShard("non-finite-loss", shard, serialize(gradient), Set.of(DeadLetterReason.NON_FINITE));
    }

    /** A gradient that would be fine for its shard, sent with the key (and to the partition) of another shard. */
    private Injection.Planned keyOfAnotherShard(final int shard, final Random random) {
        final int other = (shard + 1 + random.nextInt(layout.shards() - 1)) % layout.shards();
        final byte[] bytes = serialize(gradient(spec.getJob(), shard, finite(random, layout.length(shard))));
        return new Injection.Planned(
                "key-of-another-shard",
                topic,
                partitionOf(other),
                ShardKeys.shard(spec.getJob(), other),
                bytes,
                MALFORMED);
    }

    private Injection.Planned wellFormed(
            final String kind, final int shard, final float[] values, final DeadLetterReason reason) {
        return toShard(kind, shard, serialize(gradient(spec.getJob(), shard, values)), Set.of(reason));
    }

    private Injection.Planned toShard(
            final String kind, final int shard, final byte[] value, final Set<DeadLetterReason> reasons) {
        return new Injection.Planned(
                kind, topic, partitionOf(shard), ShardKeys.shard(spec.getJob(), shard), value, reasons);
    }

    /** The partition the default partitioner gives the real key of {@code shard}. */
    private int partitionOf(final int shard) {
        final byte[] key = ShardKeys.shard(spec.getJob(), shard).getBytes(StandardCharsets.UTF_8);
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }

    private GradientShard gradient(final String job, final int shard, final float[] values) {
        return GradientShard.newBuilder()
                .setJob(job)
                .setShard(shard)
                .setWorker(INTRUDER)
                .setClock(1_000_000)
                .setBaseVersion(0)
                .setSampleCount(1)
                .setLoss(1.0)
                .setValues(FloatPacking.pack(values))
                .build();
    }

    private byte[] serialize(final GradientShard gradient) {
        return serializer.serialize(topic, gradient);
    }

    private static float[] finite(final Random random, final int length) {
        final float[] values = new float[length];
        for (int i = 0; i < length; i++) {
            values[i] = (float) random.nextGaussian();
        }
        return values;
    }

    private static int otherThan(final Random random, final int length) {
        final int other = random.nextInt(2 * length + 2);
        return other >= length ? other + 1 : other;
    }

    private static byte[] randomBytes(final Random random, final int length, final boolean notMagicFirst) {
        final byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        if (notMagicFirst && bytes[0] == WireFormat.MAGIC_BYTE) {
            bytes[0] = 1;
        }
        return bytes;
    }
}
