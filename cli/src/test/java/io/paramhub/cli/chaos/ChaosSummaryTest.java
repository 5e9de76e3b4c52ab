package io.paramhub.cli.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChaosSummaryTest {

    private static final Fault BROKER = new Fault(FaultKind.BROKER_KILL, 1, 3, 2_000, false);
    private static final Fault WORKER = new Fault(FaultKind.WORKER_KILL, 0, 4, 500, false);

    @Test
    void shouldCountInjectedFaultsByKindAndPassWhenEveryInvariantHolds() throws Exception {
        // given
        final Schedule schedule = new Schedule(7, List.of(BROKER, WORKER, BROKER));
        final List<InjectedFault> faults = List.of(
                new InjectedFault(BROKER, 10, 1_000, 9_000),
                new InjectedFault(WORKER, 20, 12_000, 4_000),
                new InjectedFault(BROKER, -1, -1, -1));
        final List<Verdict> verdicts = List.of(Verdict.pass("a", "fine"), Verdict.pass("b", "fine"));

        // when
        final String line = ChaosSummary.json(schedule, faults, verdicts);

        // then
        assertThat(line).doesNotContain("\n");
        final JsonNode json = new ObjectMapper().readTree(line);
        assertThat(json.get("faults").asInt()).isEqualTo(3);
        assertThat(json.get("injected").asInt()).isEqualTo(2);
        assertThat(json.get("faultsByKind").get("BROKER_KILL").asInt()).isEqualTo(1);
        assertThat(json.get("faultsByKind").get("WORKER_KILL").asInt()).isEqualTo(1);
        assertThat(json.get("invariants").get("a").get("pass").asBoolean()).isTrue();
        assertThat(json.get("passed").asBoolean()).isTrue();
    }

    @Test
    void shouldFailWhenOneInvariantFails() {
        // given
        final List<Verdict> verdicts = List.of(Verdict.pass("a", "fine"), Verdict.fail("b", "2 parameters differ"));

        // when / then
        assertThat(ChaosSummary.passed(verdicts)).isFalse();
        assertThat(ChaosSummary.passed(List.of()))
                .as("no invariant checked proves nothing")
                .isFalse();
    }
}
