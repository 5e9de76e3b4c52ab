package io.paramhub.embedded.secure;

import io.paramhub.launcher.TopicSetup;
import io.paramhub.schemas.registry.SchemaRegistryConfig;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.TopicProvisioner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AclBinding;

/**
 * The roles of {@code paramhub up --secure}, set up by its admin on every start (all of it idempotent): ParamHub's
 * topics in their default layout (no role may create them), one SCRAM user per {@link Role} with the password the
 * {@link LocalSecrets} keep, each role's {@link AppAcls}, and each role's client settings written to
 * {@code <dir>/<role>.properties}.
 */
public final class SecureRoles {

    /** SCRAM iterations of the roles' credentials (Kafka's minimum is 4096). */
    private static final int ITERATIONS = 8192;

    private static final long TIMEOUT_SECONDS = 30;

    private SecureRoles() {}

    /**
     * Sets the roles up on the broker that {@code admin} (the super user's settings, registry's included) reaches,
     * in {@code scope}; returns each role's settings file in {@code dir}.
     */
    public static Map<Role, Path> setUp(
            final Properties admin, final LocalSecrets secrets, final AclScope scope, final Path dir) {
        final Properties client = ClientProperties.withoutRegistrySettings(admin);
        try (Admin kafka = Admin.create(client)) {
            final TopicSetup setup = TopicSetup.defaults();
            new TopicProvisioner(kafka)
                    .ensure(
                            TopicCatalog.create(scope.topicPrefix(), SerdeFactory.forRegistry("mock://unused"))
                                    .layouts(setup.shardPartitions(), setup.otherPartitions()),
                            setup.replication());
            final List<UserScramCredentialAlteration> users = new ArrayList<>();
            final List<AclBinding> acls = new ArrayList<>();
            for (final Role role : Role.values()) {
                users.add(new UserScramCredentialUpsertion(
                        role.user(),
                        new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, ITERATIONS),
                        secrets.rolePasswords().get(role)));
                acls.addAll(AppAcls.of(role, "User:" + role.user(), scope));
            }
            kafka.alterUserScramCredentials(users).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            kafka.createAcls(acls).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (final ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not set up the roles' users and ACLs: " + e.getMessage(), e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while setting up the roles", e);
        }
        final String bootstrap = admin.getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        final String registry = admin.getProperty(SchemaRegistryConfig.SCHEMA_REGISTRY_URL);
        final Map<Role, Path> files = new EnumMap<>(Role.class);
        try {
            for (final Role role : Role.values()) {
                final Path file = dir.resolve(LocalSecrets.roleSettingsFile(role));
                LocalSecrets.write(
                        file,
                        secrets.roleSettings(role, bootstrap, registry),
                        "paramhub up --secure: client settings of role " + role.user());
                files.put(role, file);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("could not write the roles' settings in " + dir, e);
        }
        return files;
    }
}
