package io.paramhub.bench.replay;

import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.function.Function;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/** The topics a recording keeps, with the Avro class of their values. */
enum RecordedTopic {
    JOBS(JobSpec.class, TopicCatalog::jobs),
    MEMBERSHIP(WorkerStatus.class, TopicCatalog::membership),
    GRADIENTS(GradientShard.class, TopicCatalog::gradients),
    TELEMETRY(IterationTelemetry.class, TopicCatalog::telemetry),
    COMMANDS(ResourceCommand.class, TopicCatalog::commands),
    MODEL(ModelShard.class, TopicCatalog::model);

    private final Class<? extends SpecificRecord> type;
    private final Function<TopicCatalog, Topic<String, ?>> topic;

    RecordedTopic(final Class<? extends SpecificRecord> type, final Function<TopicCatalog, Topic<String, ?>> topic) {
        this.type = type;
        this.topic = topic;
    }

    @SuppressWarnings("unchecked")
    <V> Topic<String, V> in(final TopicCatalog topics) {
        return (Topic<String, V>) topic.apply(topics);
    }

    /** The file of this topic in a recording directory. */
    String fileName() {
        return name().toLowerCase(Locale.ROOT) + ".records";
    }

    byte[] encode(final Object value) {
        try {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
            new SpecificDatumWriter<Object>(((SpecificRecord) value).getSchema()).write(value, encoder);
            encoder.flush();
            return bytes.toByteArray();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    <V> V decode(final byte[] value) {
        try {
            return (V) new SpecificDatumReader<>(type)
                    .read(null, DecoderFactory.get().binaryDecoder(value, null));
        } catch (final IOException e) {
            throw new UncheckedIOException("a recorded " + name() + " record does not decode", e);
        }
    }
}
