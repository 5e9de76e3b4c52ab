package io.paramhub.embedded.secure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed TLS certificate for servers on this machine ({@code localhost}, {@code 127.0.0.1}), made with the
 * JDK's {@code keytool}: a PKCS12 key store with the key and certificate, for the broker and the registry, and a
 * PKCS12 trust store with the certificate, for their clients. Both use one password.
 */
public record SelfSignedCertificates(Path keyStore, Path trustStore, String password) {

    /** Key store file name under the directory given to {@link #create}. */
    public static final String KEY_STORE = "server.keystore.p12";
    /** Trust store file name under the directory given to {@link #create}. */
    public static final String TRUST_STORE = "client.truststore.p12";
    /** Store type of both files. */
    public static final String TYPE = "PKCS12";

    /** Makes both stores in {@code dir} (created when missing), valid for {@code days} days. */
    public static SelfSignedCertificates create(final Path dir, final String password, final int days) {
        try {
            Files.createDirectories(dir);
            final Path keyStore = dir.resolve(KEY_STORE);
            final Path trustStore = dir.resolve(TRUST_STORE);
            final Path certificate = dir.resolve("server.crt");
            Files.deleteIfExists(keyStore);
            Files.deleteIfExists(trustStore);
            keytool(
                    "-genkeypair",
                    "-alias",
                    "paramhub",
                    "-keyalg",
                    "RSA",
                    "-keysize",
                    "2048",
                    "-dname",
                    "CN=localhost",
                    "-ext",
                    "SAN=dns:localhost,ip:127.0.0.1",
                    "-validity",
                    Integer.toString(days),
                    "-storetype",
                    TYPE,
                    "-keystore",
                    keyStore.toString(),
                    "-storepass",
                    password,
                    "-keypass",
                    password);
            keytool(
                    "-exportcert",
                    "-alias",
                    "paramhub",
                    "-rfc",
                    "-file",
                    certificate.toString(),
                    "-keystore",
                    keyStore.toString(),
                    "-storepass",
                    password);
            keytool(
                    "-importcert",
                    "-noprompt",
                    "-alias",
                    "paramhub",
                    "-file",
                    certificate.toString(),
                    "-storetype",
                    TYPE,
                    "-keystore",
                    trustStore.toString(),
                    "-storepass",
                    password);
            return new SelfSignedCertificates(keyStore, trustStore, password);
        } catch (final IOException e) {
            throw new IllegalStateException("cannot write certificates to " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The stores {@link #create} made in {@code dir} before, when both are there. */
    public static SelfSignedCertificates existing(final Path dir, final String password) {
        final Path keyStore = dir.resolve(KEY_STORE);
        final Path trustStore = dir.resolve(TRUST_STORE);
        return Files.isRegularFile(keyStore) && Files.isRegularFile(trustStore)
                ? new SelfSignedCertificates(keyStore, trustStore, password)
                : null;
    }

    @Override
    public String toString() {
        return "SelfSignedCertificates[" + keyStore + ", " + trustStore + "]";
    }

    private static void keytool(final String... args) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        final Process process =
                new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool " + args[0] + " failed: " + output);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running keytool " + args[0], e);
        }
    }
}
