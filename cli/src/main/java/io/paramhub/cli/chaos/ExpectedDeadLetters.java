package io.paramhub.cli.chaos;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.topology.client.TopicReader;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The only dead letters are gradients a restarted worker sent again ({@code DUPLICATE}, {@code STALE}), each
 * byte-equal to a record earlier on its {@code gradients} partition: a fault may repeat a record, never change one.
 * Any other letter (a malformed record, an unknown schema after a registry restart, ...) fails the run.
 */
final class ExpectedDeadLetters implements Invariant {

    private static final Set<DeadLetterReason> EXPECTED = Set.of(DeadLetterReason.DUPLICATE, DeadLetterReason.STALE);

    @Override
    public String name() {
        return "only-expected-dead-letters";
    }

    @Override
    public Verdict check(final ChaosRecord run) {
        final List<DeadLetter> letters = new ArrayList<>();
        final Map<Integer, Map<Long, ByteBuffer>> gradients = new HashMap<>();
        try {
            try (TopicReader<String, DeadLetter> reader =
                    new TopicReader<>(run.topics().deadLetters(), run.client())) {
                reader.catchUp(Duration.ofSeconds(60), record -> letters.add(record.value()));
            }
            RawTopic.readAll(
                    run.client(),
                    run.topics().gradients().name(),
                    record -> gradients
                            .computeIfAbsent(record.partition(), partition -> new HashMap<>())
                            .put(record.offset(), record.value() == null ? null : ByteBuffer.wrap(record.value())));
        } catch (final RuntimeException e) {
            return Verdict.fail(name(), "could not read the dead letters or gradients: " + e.getMessage());
        }
        final List<String> unexpected = new ArrayList<>();
        for (final DeadLetter letter : letters) {
            if (!EXPECTED.contains(letter.getReason())
                    || !run.topics().gradients().name().equals(letter.getSourceTopic())) {
                unexpected.add(letter.getReason() + " from " + letter.getSourceTopic() + ": " + letter.getError());
            } else if (!repeatsAnEarlierRecord(gradients.getOrDefault(letter.getPartition(), Map.of()), letter)) {
                unexpected.add(letter.getReason() + " at " + letter.getSourceTopic() + "-" + letter.getPartition() + "@"
                        + letter.getOffset() + " equals no earlier record");
            }
        }
        return unexpected.isEmpty()
                ? Verdict.pass(name(), letters.size() + " dead letters, each a repeated gradient")
                : Verdict.fail(
                        name(),
                        unexpected.size() + " unexpected: "
                                + String.join("; ", unexpected.subList(0, Math.min(5, unexpected.size()))));
    }

    private static boolean repeatsAnEarlierRecord(final Map<Long, ByteBuffer> partition, final DeadLetter letter) {
        final ByteBuffer value = partition.get(letter.getOffset());
        if (value == null) {
            return false;
        }
        return partition.entrySet().stream()
                .anyMatch(entry -> entry.getKey() < letter.getOffset() && value.equals(entry.getValue()));
    }
}
