package io.paramhub.embedded.secure;

import java.util.Properties;

/**
 * How the embedded broker is secured: one SASL_SSL listener with SCRAM-SHA-512 and the certificate of
 * {@code certificates}, and {@code StandardAuthorizer} allowing only ACLs, with {@code adminUser} (whose SCRAM
 * credentials are written when the storage is formatted) as the super user. The controller listener stays
 * PLAINTEXT on loopback: KRaft cannot authenticate it with SCRAM, so the broker reaches it as
 * {@code User:ANONYMOUS}, also a super user.
 */
public record BrokerSecurity(SelfSignedCertificates certificates, String adminUser, String adminPassword) {

    /** Name of the broker's SASL_SSL listener. */
    public static final String LISTENER = "SASL_SSL";

    /** The broker settings of this security on the client port {@code brokerPort} and {@code controllerPort}. */
    public Properties brokerSettings(final int brokerPort, final int controllerPort) {
        final Properties props = new Properties();
        props.put("listeners", LISTENER + "://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        props.put("advertised.listeners", LISTENER + "://127.0.0.1:" + brokerPort);
        props.put("listener.security.protocol.map", LISTENER + ":SASL_SSL,CONTROLLER:PLAINTEXT");
        props.put("inter.broker.listener.name", LISTENER);
        props.put("sasl.enabled.mechanisms", SaslSslSettings.MECHANISM);
        props.put("sasl.mechanism.inter.broker.protocol", SaslSslSettings.MECHANISM);
        props.put(
                "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
                SaslSslSettings.jaas(adminUser, adminPassword));
        props.put("ssl.keystore.location", certificates.keyStore().toString());
        props.put("ssl.keystore.password", certificates.password());
        props.put("ssl.key.password", certificates.password());
        props.put("ssl.keystore.type", SelfSignedCertificates.TYPE);
        props.put("ssl.truststore.location", certificates.trustStore().toString());
        props.put("ssl.truststore.password", certificates.password());
        props.put("ssl.truststore.type", SelfSignedCertificates.TYPE);
        props.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        props.put("allow.everyone.if.no.acl.found", "false");
        props.put("super.users", "User:" + adminUser + ";User:ANONYMOUS");
        return props;
    }

    /** The {@code kafka-storage format} argument that writes the admin's SCRAM credentials. */
    public String addScramArgument() {
        return SaslSslSettings.MECHANISM + "=[name=" + adminUser + ",password=" + adminPassword + "]";
    }

    @Override
    public String toString() {
        return "BrokerSecurity[" + certificates + ", " + adminUser + "]";
    }
}
