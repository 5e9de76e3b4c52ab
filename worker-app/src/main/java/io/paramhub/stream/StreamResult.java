package io.paramhub.stream;

import java.util.Locale;

/** What a stream wrote: how many examples the broker acknowledged, to which topic, in how long. */
public record StreamResult(String topic, long examples, long elapsedNanos) {

    /** Seconds from the first send to the last acknowledgement. */
    public double seconds() {
        return elapsedNanos / 1e9;
    }

    /** Examples a second achieved; 0 when nothing was written. */
    public double rate() {
        return elapsedNanos > 0 ? examples / seconds() : 0;
    }

    /** One line for the user: {@code wrote 60,000 examples to topic T in 60.0 s: 1,000 a second}. */
    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "wrote %,d examples to topic %s in %.1f s: %,.0f a second",
                examples,
                topic,
                seconds(),
                rate());
    }
}
