package io.paramhub.embedded.secure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalSecretsTest {

    @Test
    void shouldMakeOnePasswordPerRoleAndKeepThemWhenLoadedAgain(@TempDir final Path dir) {
        // given
        final LocalSecrets first = LocalSecrets.loadOrCreate(dir);

        // when
        final LocalSecrets again = LocalSecrets.loadOrCreate(dir);

        // then
        assertThat(first.rolePasswords()).containsOnlyKeys(Role.values());
        assertThat(first.rolePasswords().values()).doesNotHaveDuplicates().allMatch(p -> p.length() >= 24);
        assertThat(again.rolePasswords()).isEqualTo(first.rolePasswords());
        assertThat(again.adminPassword()).isEqualTo(first.adminPassword());
    }

    @Test
    void shouldAddRolePasswordsAndKeepTheOthersWhenDirectoryPredatesRoles(@TempDir final Path dir) throws IOException {
        // given: a directory made before roles, with no role passwords
        final LocalSecrets first = LocalSecrets.loadOrCreate(dir);
        final Path file = dir.resolve(LocalSecrets.PASSWORDS);
        final Properties kept = load(file);
        for (final Role role : Role.values()) {
            kept.remove(role.user() + ".password");
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            kept.store(out, null);
        }

        // when
        final LocalSecrets upgraded = LocalSecrets.loadOrCreate(dir);

        // then
        assertThat(upgraded.adminPassword()).isEqualTo(first.adminPassword());
        assertThat(upgraded.registryPassword()).isEqualTo(first.registryPassword());
        assertThat(upgraded.rolePasswords()).containsOnlyKeys(Role.values());
        assertThat(LocalSecrets.loadOrCreate(dir).rolePasswords()).isEqualTo(upgraded.rolePasswords());
    }

    @Test
    void shouldLogInAsTheRolesUserWhenRoleSettings(@TempDir final Path dir) {
        // given
        final LocalSecrets secrets = LocalSecrets.loadOrCreate(dir);

        // when
        final Properties worker = secrets.roleSettings(Role.WORKER, "127.0.0.1:9092", "https://127.0.0.1:8081");

        // then
        assertThat(worker.getProperty("sasl.jaas.config"))
                .contains("username=\"worker\"")
                .contains("password=\"" + secrets.rolePasswords().get(Role.WORKER) + "\"")
                .doesNotContain(secrets.adminPassword());
        assertThat(worker.getProperty("security.protocol")).isEqualTo("SASL_SSL");
        assertThat(LocalSecrets.roleSettingsFile(Role.WORKER)).isEqualTo("worker.properties");
        assertThat(secrets.toString()).doesNotContain(secrets.rolePasswords().get(Role.WORKER));
    }

    private static Properties load(final Path file) throws IOException {
        final Properties props = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            props.load(in);
        }
        return props;
    }
}
