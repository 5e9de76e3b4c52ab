package io.paramhub.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class ClientPropertiesTest {

    @Test
    void shouldKeepSecuritySettingsAndDropRegistryOnesWhenMakingPlainClientSettings() {
        // given
        final Properties settings = new Properties();
        settings.put("bootstrap.servers", "broker:9093");
        settings.put("security.protocol", "SASL_SSL");
        settings.put("sasl.mechanism", "SCRAM-SHA-512");
        settings.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        settings.put("ssl.truststore.location", "/certs/truststore.p12");
        settings.put("schema.registry.url", "https://registry:8081");
        settings.put("basic.auth.user.info", "worker:secret");
        settings.put("auto.register.schemas", "false");

        // when
        final Properties client = ClientProperties.producer(ClientProperties.withoutRegistrySettings(settings));

        // then
        assertThat(client)
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;")
                .containsEntry("ssl.truststore.location", "/certs/truststore.p12")
                .containsEntry("bootstrap.servers", "broker:9093")
                .doesNotContainKeys("schema.registry.url", "basic.auth.user.info", "auto.register.schemas");
    }

    @Test
    void shouldLeaveSocketBuffersToTheKernelUnlessTheUserSizedThem() {
        // given
        final Properties sized = new Properties();
        sized.put("receive.buffer.bytes", 65536);

        // when
        final Properties producer = ClientProperties.producer(new Properties());
        final Properties consumer = ClientProperties.assignedConsumer(sized);

        // then
        assertThat(producer).containsEntry("send.buffer.bytes", -1).containsEntry("receive.buffer.bytes", -1);
        assertThat(consumer).containsEntry("send.buffer.bytes", -1).containsEntry("receive.buffer.bytes", 65536);
    }

    @Test
    void shouldWaitForAWholeModelVersionOnlyInTheModelReadersFetches() {
        // when
        final Properties model = ClientProperties.modelReads(new Properties(), 940_584);
        final Properties plain = ClientProperties.uncommittedReads(new Properties());

        // then
        assertThat(model)
                .containsEntry("fetch.min.bytes", 940_584)
                .containsEntry("isolation.level", "read_uncommitted");
        assertThat(plain).doesNotContainKey("fetch.min.bytes");
    }

    @Test
    void shouldWaitBrieflyForCommittedRecordsOnlyWhereAskedAndAsTheUserSaysIfTheyDo() {
        // given
        final Properties patient = new Properties();
        patient.put("fetch.max.wait.ms", 250);

        // when
        final Properties joining =
                ClientProperties.assignedConsumer(ClientProperties.briefFetchWaits(new Properties()));
        final Properties reading = ClientProperties.assignedConsumer(new Properties());
        final Properties users = ClientProperties.assignedConsumer(ClientProperties.briefFetchWaits(patient));

        // then
        assertThat(joining)
                .containsEntry("fetch.max.wait.ms", ClientProperties.BRIEF_FETCH_WAIT_MS)
                .containsEntry("isolation.level", "read_committed");
        assertThat(reading).containsEntry("fetch.max.wait.ms", 50);
        assertThat(users).containsEntry("fetch.max.wait.ms", 250);
    }
}
