package io.paramhub.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class MeterRegistryReporterTest {

    @Test
    void shouldShowAPlainClientsMetricsAndRemoveThemWhenTheClientCloses() {
        // given
        final AppMetrics metrics = AppMetrics.create("test-app");
        final Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "reporter-test");

        // when
        final String whileOpen;
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(metrics.reportClients(props), new StringSerializer(), new StringSerializer())) {
            whileOpen = metrics.scrape();
        }
        final String afterClose = metrics.scrape();

        // then
        // Prometheus keeps _total for counters: Kafka's record-send-total is a gauge here, named without it
        assertThat(whileOpen).containsPattern("(?m)^kafka_producer_record_send\\{.*client_id=\"reporter-test\"");
        assertThat(whileOpen).contains("app=\"test-app\"");
        assertThat(afterClose).doesNotContain("client_id=\"reporter-test\"");
        metrics.close();
    }
}
