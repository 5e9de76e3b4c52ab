package io.paramhub.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class HashPasswordCommandTest {

    @Test
    void shouldPrintUsersFileLineThatTheRegistryReadsWhenGivenNameAndPassword(@TempDir final Path dir)
            throws Exception {
        // given: the password on standard input, as a script pipes it
        final StringWriter out = new StringWriter();
        final CommandLine command = commandReading("s3cret pass\n", out);

        // when
        final int code = command.execute("alice", "--iterations", "10000");

        // then: a line of the users file, which the registry reads back as alice with that password
        assertThat(code).isZero();
        assertThat(out.toString()).startsWith("alice: PBKDF2-SHA256:10000:").doesNotContain("s3cret");
        final Path users = Files.writeString(dir.resolve("users.properties"), out.toString());
        final Map<String, PasswordHash> read = RegistryUsers.read(users, false);
        assertThat(read.get("alice").matches("s3cret pass".toCharArray())).isTrue();
        assertThat(read.get("alice").matches("s3cret".toCharArray())).isFalse();
    }

    @Test
    void shouldPrintTheHashAloneWhenNoNameIsGiven() {
        // given
        final StringWriter out = new StringWriter();

        // when
        final int code = commandReading("wonder\n", out).execute("--iterations", "10000");

        // then
        assertThat(code).isZero();
        assertThat(out.toString().strip()).matches("PBKDF2-SHA256:10000:\\S+:\\S+");
    }

    @Test
    void shouldFailWithOneLineAndCodeTwoWhenNameHasColon() {
        // given: the stand-alone registry's command line, which reports errors in one line
        final StringWriter err = new StringWriter();
        final SchemaRegistryApp app = new SchemaRegistryApp(Map.of());

        // when: a name the users file cannot hold, refused before any password is read
        final int code = SchemaRegistryApp.execute(
                app, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), "hash-password", "a:b");

        // then
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).startsWith("paramhub-registry: a user name is not blank and has no ':'");
    }

    private static CommandLine commandReading(final String input, final StringWriter out) {
        final CommandLine command = new CommandLine(
                new HashPasswordCommand(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), null));
        command.setOut(new PrintWriter(out, true));
        return command;
    }
}
