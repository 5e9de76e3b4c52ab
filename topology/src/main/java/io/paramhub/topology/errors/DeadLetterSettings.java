package io.paramhub.topology.errors;

/** The Streams setting that names the topic ParamHub's Streams error handlers write {@code DeadLetter} records to. */
public final class DeadLetterSettings {

    /**
     * Topic ParamHub's Streams error handlers write {@code DeadLetter} records to, normally the app's
     * {@code TopicCatalog.deadLetters()}. Not Kafka's {@code errors.dead.letter.queue.topic.name}: with that set,
     * Kafka's default handlers would write raw, non-Avro records to it.
     */
    public static final String TOPIC = "paramhub.dead.letter.topic";

    private DeadLetterSettings() {}
}
