package io.paramhub.testing;

import io.paramhub.embedded.secure.SaslSslSettings;
import io.paramhub.embedded.secure.SelfSignedCertificates;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.metadata.UserScramCredentialRecord;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A one-node KRaft cluster in the test JVM whose broker listener is SASL_SSL with SCRAM-SHA-512 (certificates
 * from {@link SelfSignedCertificates}, SCRAM users written into the bootstrap metadata, as
 * {@code kafka-storage format --add-scram} does) and whose authorizer is {@code StandardAuthorizer}: only ACLs
 * allow, the admin user is a super user. The controller listener stays PLAINTEXT on loopback; the broker talks to
 * it as {@code User:ANONYMOUS}, which is therefore a super user too (KRaft cannot use SCRAM there).
 */
public final class SecureTestCluster implements AutoCloseable {

    /** The admin API's {@code ScramMechanism.SCRAM_SHA_512.type()}, as a credential record stores it. */
    private static final byte SCRAM_SHA_512_TYPE = 2;

    private final KafkaClusterTestKit cluster;
    private final SelfSignedCertificates certificates;

    private SecureTestCluster(final KafkaClusterTestKit cluster, final SelfSignedCertificates certificates) {
        this.cluster = cluster;
        this.certificates = certificates;
    }

    /** Starts the cluster with SCRAM {@code users} (name to password); {@code admin} is the super user. */
    public static SecureTestCluster start(
            final SelfSignedCertificates certificates, final Map<String, String> users, final String admin)
            throws Exception {
        final TestKitNodes nodes = new TestKitNodes.Builder(bootstrap(users))
                .setCombined(true)
                .setNumBrokerNodes(1)
                .setNumControllerNodes(1)
                .build();
        // the kit takes PLAINTEXT or SASL_PLAINTEXT only: its listeners are given here instead, which it keeps
        final String name = nodes.brokerListenerName().value();
        final String controller = nodes.controllerListenerName().value();
        final String listener = name.toLowerCase(Locale.ROOT);
        final Map<String, String> settings = new HashMap<>(KafkaTestCluster.defaultBrokerSettings());
        settings.put("listeners", name + "://localhost:0," + controller + "://localhost:0");
        settings.put(
                "listener.security.protocol.map",
                name + ":" + SecurityProtocol.SASL_SSL.name + "," + controller + ":" + SecurityProtocol.PLAINTEXT.name);
        settings.put("sasl.enabled.mechanisms", SaslSslSettings.MECHANISM);
        settings.put("sasl.mechanism.inter.broker.protocol", SaslSslSettings.MECHANISM);
        settings.put(
                "listener.name." + listener + ".scram-sha-512.sasl.jaas.config",
                SaslSslSettings.jaas(admin, users.get(admin)));
        settings.put("ssl.keystore.location", certificates.keyStore().toString());
        settings.put("ssl.keystore.password", certificates.password());
        settings.put("ssl.key.password", certificates.password());
        settings.put("ssl.keystore.type", SelfSignedCertificates.TYPE);
        settings.put("ssl.truststore.location", certificates.trustStore().toString());
        settings.put("ssl.truststore.password", certificates.password());
        settings.put("ssl.truststore.type", SelfSignedCertificates.TYPE);
        settings.put("ssl.client.auth", "none");
        settings.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        settings.put("allow.everyone.if.no.acl.found", "false");
        settings.put("super.users", "User:" + admin + ";User:ANONYMOUS");
        final KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nodes);
        settings.forEach(builder::setConfigProp);
        final KafkaClusterTestKit cluster = builder.build();
        try {
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
        } catch (final Exception e) {
            cluster.close();
            throw e;
        }
        return new SecureTestCluster(cluster, certificates);
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** The settings of a client that logs in as {@code user} with {@code password}, over TLS. */
    public Properties client(final String user, final String password) {
        return SaslSslSettings.client(
                bootstrapServers(), user, password, certificates.trustStore(), certificates.password());
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }

    private static BootstrapMetadata bootstrap(final Map<String, String> users) throws NoSuchAlgorithmException {
        final MetadataVersion version = MetadataVersion.latestProduction();
        final Map<String, Short> featureLevels = new TreeMap<>();
        featureLevels.put(MetadataVersion.FEATURE_NAME, version.featureLevel());
        Feature.PRODUCTION_FEATURES.forEach(
                feature -> featureLevels.put(feature.featureName(), feature.defaultLevel(version)));
        final List<ApiMessageAndVersion> records =
                new ArrayList<>(BootstrapMetadata.fromVersions(version, featureLevels, "paramhub-secure-test")
                        .records());
        final ScramFormatter formatter = new ScramFormatter(ScramMechanism.SCRAM_SHA_512);
        for (final Map.Entry<String, String> user : users.entrySet()) {
            final ScramCredential credential = formatter.generateCredential(user.getValue(), 4096);
            records.add(new ApiMessageAndVersion(
                    new UserScramCredentialRecord()
                            .setName(user.getKey())
                            .setMechanism(SCRAM_SHA_512_TYPE)
                            .setSalt(credential.salt())
                            .setStoredKey(credential.storedKey())
                            .setServerKey(credential.serverKey())
                            .setIterations(credential.iterations()),
                    (short) 0));
        }
        return BootstrapMetadata.fromRecords(records, "paramhub-secure-test");
    }
}
