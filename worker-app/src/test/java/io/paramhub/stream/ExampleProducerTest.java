package io.paramhub.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class ExampleProducerTest {

    @Test
    void shouldProduceIdempotentlyWithAllAcksWhateverTheConnectionSays() {
        // given: a connection that asks for acks=1, with a registry URL and its own max.block.ms
        final Properties connection = new Properties();
        connection.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "broker:9092");
        connection.put("schema.registry.url", "http://registry:8081");
        connection.put(ProducerConfig.ACKS_CONFIG, "1");
        connection.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");

        // when
        final Properties producer = ExampleProducer.settings(connection, Duration.ofSeconds(5));

        // then
        assertThat(producer.get(ProducerConfig.ACKS_CONFIG)).isEqualTo("all");
        assertThat(producer.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG)).isEqualTo(true);
        assertThat(producer.get(ProducerConfig.MAX_BLOCK_MS_CONFIG)).isEqualTo(5000L);
        assertThat(producer.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)).isEqualTo("broker:9092");
        assertThat(producer).doesNotContainKey("schema.registry.url");
    }
}
