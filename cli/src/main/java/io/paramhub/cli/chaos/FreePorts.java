package io.paramhub.cli.chaos;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.SplittableRandom;

/** Finds a run of consecutive free ports on 127.0.0.1, for brokers started while other clusters run. */
final class FreePorts {

    /** Below Linux's ephemeral range (32768 up), where a client's own socket could take a port before a broker binds it. */
    private static final int LOWEST = 20_000;

    private static final int HIGHEST = 32_000;
    private static final int ATTEMPTS = 200;

    private FreePorts() {}

    /** The first of {@code count} consecutive ports free now. */
    static int consecutive(final int count) {
        final SplittableRandom random = new SplittableRandom();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            final int first = random.nextInt(LOWEST, HIGHEST - count);
            if (allFree(first, count)) {
                return first;
            }
        }
        throw new IllegalStateException("no " + count + " consecutive free ports in " + LOWEST + ".." + HIGHEST);
    }

    private static boolean allFree(final int first, final int count) {
        for (int port = first; port < first + count; port++) {
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
                socket.getLocalPort();
            } catch (final IOException e) {
                return false;
            }
        }
        return true;
    }
}
