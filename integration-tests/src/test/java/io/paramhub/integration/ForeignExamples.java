package io.paramhub.integration;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.Future;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A producer that is not ParamHub's: sensor readings of its own schema ({@code com.example.sensors.Reading}:
 * {@code id}, features {@code x: array<float>}, class {@code y: int}), registered through the registry's REST API
 * and written as plain Kafka records in the Confluent wire format, each to the partition asked for. The classes
 * follow a fixed linear rule of the features, so a softmax regression can learn them.
 */
final class ForeignExamples implements AutoCloseable {

    static final int INPUTS = 8;
    static final int CLASSES = 3;
    static final String SCHEMA = "{\"type\":\"record\",\"name\":\"Reading\",\"namespace\":\"com.example.sensors\","
            + "\"fields\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"x\",\"type\":{\"type\":\"array\","
            + "\"items\":\"float\"}},{\"name\":\"y\",\"type\":\"int\"}]}";

    /** One record written: where it lies and what it holds. */
    record Written(int partition, long offset, float[] features, int label) {}

    private final KafkaProducer<String, byte[]> producer;
    private final String topic;
    private final Schema schema;
    private final int schemaId;
    private final Random random = new Random(20261127);
    private final float[][] rule = new float[CLASSES][INPUTS];
    private long next;

    ForeignExamples(final String bootstrapServers, final String registryUrl, final String topic) throws Exception {
        final Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        this.producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
        this.topic = topic;
        this.schema = new Schema.Parser().parse(SCHEMA);
        this.schemaId = register(registryUrl, topic + "-value", SCHEMA);
        for (final float[] row : rule) {
            for (int j = 0; j < INPUTS; j++) {
                row[j] = (float) random.nextGaussian();
            }
        }
    }

    /** Registers {@code schema} under {@code subject} through the REST API; its id. */
    static int register(final String registryUrl, final String subject, final String schema) throws Exception {
        final ObjectMapper json = new ObjectMapper();
        final HttpRequest request = HttpRequest.newBuilder(
                        URI.create(registryUrl + "/subjects/" + subject + "/versions"))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(Map.of("schema", schema))))
                .build();
        final HttpResponse<String> response =
                HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("registering " + subject + ": " + response.body());
        }
        return json.readTree(response.body()).path("id").asInt();
    }

    /**
     * Writes {@code count} readings to {@code partition}, classes by the rule; sent one after another without
     * waiting for each (the idempotent producer keeps their order), and returns once all are written.
     */
    List<Written> write(final int partition, final int count) throws Exception {
        final List<float[]> features = new ArrayList<>();
        final List<Integer> labels = new ArrayList<>();
        final List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            final float[] x = new float[INPUTS];
            for (int j = 0; j < INPUTS; j++) {
                x[j] = (float) random.nextGaussian();
            }
            final int y = classOf(x);
            features.add(x);
            labels.add(y);
            sent.add(sendAsync(partition, encode(x, y)));
        }
        producer.flush();
        final List<Written> written = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            written.add(new Written(partition, sent.get(i).get().offset(), features.get(i), labels.get(i)));
        }
        return written;
    }

    /** A reading with features {@code x} and label {@code y}, whatever they are, to {@code partition}; its offset. */
    long writeRaw(final int partition, final float[] x, final int y) throws Exception {
        return send(partition, encode(x, y)).offset();
    }

    /** {@code value} as it is to {@code partition}; its offset. */
    long writeBytes(final int partition, final byte[] value) throws Exception {
        return send(partition, value).offset();
    }

    private RecordMetadata send(final int partition, final byte[] value) throws Exception {
        return sendAsync(partition, value).get();
    }

    private Future<RecordMetadata> sendAsync(final int partition, final byte[] value) {
        return producer.send(new ProducerRecord<>(topic, partition, Long.toString(next++), value));
    }

    private int classOf(final float[] x) {
        int best = 0;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int c = 0; c < CLASSES; c++) {
            double score = 0;
            for (int j = 0; j < INPUTS; j++) {
                score += rule[c][j] * x[j];
            }
            if (score > bestScore) {
                bestScore = score;
                best = c;
            }
        }
        return best;
    }

    private byte[] encode(final float[] x, final int y) throws IOException {
        final GenericRecord record = new GenericData.Record(schema);
        record.put("id", next);
        final List<Float> values = new ArrayList<>();
        for (final float value : x) {
            values.add(value);
        }
        record.put("x", values);
        record.put("y", y);
        return frame(schemaId, schema, record);
    }

    /** {@code record} of {@code schema} in the registry's wire format with id {@code id}. */
    static byte[] frame(final int id, final Schema schema, final GenericRecord record) throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(id).array());
        final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    @Override
    public void close() {
        producer.close();
    }
}
