package io.paramhub.schemas.registry;

import java.time.Duration;

/**
 * How long a client waits before asking an unavailable schema registry again: {@link #FIRST} after the first
 * failure, then twice the pause before, at most a given longest pause (as Kafka's clients back off from their
 * brokers).
 */
public final class OutagePauses {

    /** The pause after the first call the registry could not answer. */
    public static final Duration FIRST = Duration.ofSeconds(1);

    /** The longest pause for a caller that has nothing else to do meanwhile. */
    public static final Duration LONGEST = Duration.ofSeconds(30);

    private OutagePauses() {}

    /** The pause after {@code pause} while the registry stays unavailable: twice as long, at most {@code longest}. */
    public static Duration next(final Duration pause, final Duration longest) {
        final Duration doubled = pause.multipliedBy(2);
        return doubled.compareTo(longest) > 0 ? longest : doubled;
    }
}
