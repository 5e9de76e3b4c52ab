package io.paramhub.embedded.secure;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * The Kafka client settings of a SASL_SSL listener with SCRAM-SHA-512: {@code security.protocol},
 * {@code sasl.mechanism}, {@code sasl.jaas.config} with the user's credentials, and the trust store of the
 * brokers' certificate.
 */
public final class SaslSslSettings {

    /** The SASL mechanism ParamHub's secured clusters use. */
    public static final String MECHANISM = "SCRAM-SHA-512";

    private SaslSslSettings() {}

    /** The settings of a client that logs in as {@code user} with {@code password}. */
    public static Properties client(
            final String bootstrapServers,
            final String user,
            final String password,
            final Path trustStore,
            final String trustStorePassword) {
        final Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, SecurityProtocol.SASL_SSL.name);
        props.put(SaslConfigs.SASL_MECHANISM, MECHANISM);
        props.put(SaslConfigs.SASL_JAAS_CONFIG, jaas(user, password));
        props.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, trustStore.toString());
        props.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, trustStorePassword);
        props.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, SelfSignedCertificates.TYPE);
        return props;
    }

    /** The {@code sasl.jaas.config} of SCRAM login as {@code user}. */
    public static String jaas(final String user, final String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user + "\" password=\""
                + password + "\";";
    }
}
