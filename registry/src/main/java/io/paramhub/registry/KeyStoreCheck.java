package io.paramhub.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Collections;

/**
 * Opens the PKCS12 key store a registry serves HTTPS with before the server starts, so that a wrong path, a
 * wrong password or a store without a private key is one clear setting error and not a failure deep in the
 * HTTP server's start-up.
 */
final class KeyStoreCheck {

    static final String TYPE = "PKCS12";

    private KeyStoreCheck() {}

    /**
     * @throws IllegalArgumentException naming the store and what is wrong with it
     */
    static void requireUsable(final Path keyStore, final String password) {
        final KeyStore store;
        try (InputStream in = Files.newInputStream(keyStore)) {
            store = KeyStore.getInstance(TYPE);
            store.load(in, password.toCharArray());
        } catch (final IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "cannot open the " + TYPE + " key store " + keyStore + " (wrong path or password?): "
                            + e.getMessage(),
                    e);
        }
        try {
            for (final String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias)) {
                    return;
                }
            }
        } catch (final GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot read the key store " + keyStore + ": " + e.getMessage(), e);
        }
        throw new IllegalArgumentException(
                "the key store " + keyStore + " holds no private key and certificate to serve HTTPS with");
    }
}
