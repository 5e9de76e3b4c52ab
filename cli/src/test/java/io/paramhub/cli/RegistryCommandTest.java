package io.paramhub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.registry.PasswordHash;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RegistryCommandTest {

    @Test
    void shouldPrintHashOfPasswordOnStandardInputWhenHashPasswordIsRun() {
        // given: the password on standard input, as a script pipes it
        final InputStream stdin = System.in;
        final PrintStream stdout = System.out;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int code;
        try {
            System.setIn(new ByteArrayInputStream("wonder\n".getBytes(StandardCharsets.UTF_8)));
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));

            // when
            code = ParamHubCli.execute("registry", "hash-password", "alice", "--iterations", "10000");
        } finally {
            System.setIn(stdin);
            System.setOut(stdout);
        }

        // then: a line of the registry's users file, with alice's password hashed
        final String line = out.toString(StandardCharsets.UTF_8).strip();
        assertThat(code).isZero();
        assertThat(line).startsWith("alice: PBKDF2-SHA256:10000:");
        assertThat(PasswordHash.parse(line.substring("alice: ".length())).matches("wonder".toCharArray()))
                .isTrue();
    }
}
