package io.paramhub.schemas.serde;

/** Confluent's default subject naming: {@code <topic>-key} for keys, {@code <topic>-value} for values. */
public final class TopicNameStrategy {

    private TopicNameStrategy() {}

    /** The subject of the key or value schema of {@code topic}. */
    public static String subject(final String topic, final boolean isKey) {
        return topic + (isKey ? "-key" : "-value");
    }
}
