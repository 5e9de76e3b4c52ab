package io.paramhub.cli.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.JobSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TenantLettersTest {

    private static final JobSpec BSP = ChaosJob.bsp(ChaosJob.budget(3, ChaosJob.CLOCKS_PER_FAULT), 30_000, 2_000)
            .spec();
    private static final List<Forgery> KINDS = HostileForgeries.kinds(BSP);
    private static final Forgery MODEL = kind("model-version-max");
    private static final Forgery COMMAND = kind("command-negative-share");

    @Test
    void shouldAttributeALetterToTheForgeryWhoseReasonAndMarkerItHas() {
        // given
        final TenantLetters tenant = new TenantLetters(KINDS, List.of(), 2);

        // when / then
        assertThat(tenant.forgeryOf(letter(DeadLetterReason.INVALID_COMMAND, "batch share -0.5 outside [0, 1]")))
                .contains(COMMAND);
        assertThat(tenant.forgeryOf(letter(DeadLetterReason.STALE, "LEFT of worker-001 at clock 0, but 9 applied")))
                .contains(kind("left-of-live-worker"));
        assertThat(tenant.forgeryOf(letter(DeadLetterReason.INVALID_JOB, "invalid job chaos-hostile: shards")))
                .contains(kind("invalid-job-spec"));
    }

    @Test
    void shouldNotAttributeALetterWithTheMarkerButAnotherReason() {
        // given: a repeated gradient's letter, and a malformed command that happens to name a share
        final TenantLetters tenant = new TenantLetters(KINDS, List.of(), 2);

        // when / then
        assertThat(tenant.forgeryOf(letter(DeadLetterReason.DUPLICATE, "clock 4 of worker-000 again")))
                .isEmpty();
        assertThat(tenant.forgeryOf(letter(DeadLetterReason.MALFORMED, "batch share -0.5")))
                .isEmpty();
        assertThat(tenant.forgeryOf(letter(DeadLetterReason.INVALID_JOB, "invalid job chaos-bsp: shards")))
                .isEmpty();
    }

    @Test
    void shouldPassWhenEachForgeryHasItsLettersWithinItsReaders() {
        // given: two rounds of every forgery; the model's read by up to 3 worker processes
        final List<HostileTenant.Sent> sent = twoRounds();
        final List<DeadLetter> letters = new ArrayList<>();
        for (final Forgery kind : KINDS) {
            final int count = kind.byWorkers() ? 5 : 2;
            for (int i = 0; i < count; i++) {
                letters.add(letter(kind.reason(), "forged: " + kind.marker()));
            }
        }

        // when
        final List<String> problems = new TenantLetters(KINDS, sent, 3).problems(letters);

        // then
        assertThat(problems).isEmpty();
    }

    @Test
    void shouldFailWhenAForgeryWasNeverDeadLetteredOrAnAggregatorLetterIsDoubled() {
        // given: the model forgery without letters, a command's letter three times for two written
        final List<DeadLetter> letters = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            letters.add(letter(DeadLetterReason.INVALID_COMMAND, "batch share -0.5"));
        }

        // when
        final List<String> problems = new TenantLetters(List.of(MODEL, COMMAND), twoRounds(), 3).problems(letters);

        // then
        assertThat(problems)
                .containsExactly(
                        "model-version-max: 0 dead letters for 2 written, expected 2..6",
                        "command-negative-share: 3 dead letters for 2 written, expected 2");
    }

    @Test
    void shouldFailWhenAModelForgeryHasMoreLettersThanReaders() {
        // given: one model forgery written, read by at most 2 workers, with 3 letters
        final List<HostileTenant.Sent> sent = List.of(new HostileTenant.Sent(MODEL, "paramhub.model", 0, 7));
        final List<DeadLetter> letters = List.of(modelLetter(), modelLetter(), modelLetter());

        // when
        final List<String> problems = new TenantLetters(List.of(MODEL), sent, 2).problems(letters);

        // then
        assertThat(problems).containsExactly("model-version-max: 3 dead letters for 1 written, expected 1..2");
    }

    private static DeadLetter modelLetter() {
        return letter(DeadLetterReason.INVALID_MODEL, "version " + Long.MAX_VALUE + " beyond the job's end");
    }

    private static List<HostileTenant.Sent> twoRounds() {
        final List<HostileTenant.Sent> sent = new ArrayList<>();
        long offset = 0;
        for (int round = 0; round < 2; round++) {
            for (final Forgery kind : KINDS) {
                sent.add(new HostileTenant.Sent(kind, "t", 0, offset++));
            }
        }
        return sent;
    }

    private static Forgery kind(final String name) {
        return KINDS.stream()
                .filter(kind -> kind.kind().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static DeadLetter letter(final DeadLetterReason reason, final String error) {
        return DeadLetter.newBuilder()
                .setSourceTopic("paramhub.x")
                .setPartition(0)
                .setOffset(0)
                .setReason(reason)
                .setError(error)
                .setTimestamp(Instant.EPOCH)
                .build();
    }
}
