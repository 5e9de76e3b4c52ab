package io.paramhub.cli.chaos;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one-line JSON a chaos run ends with: seed, faults by kind (scheduled and injected), each invariant with
 * pass or fail and its detail, and whether all passed.
 */
final class ChaosSummary {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ChaosSummary() {}

    static String json(final Schedule schedule, final List<InjectedFault> faults, final List<Verdict> verdicts) {
        final ObjectNode root = JSON.createObjectNode();
        root.put("seed", schedule.seed());
        root.put("faults", schedule.faults().size());
        root.put("injected", faults.stream().filter(InjectedFault::injected).count());
        final Map<String, Integer> byKind = new TreeMap<>();
        faults.stream()
                .filter(InjectedFault::injected)
                .forEach(fault -> byKind.merge(fault.fault().kind().name(), 1, Integer::sum));
        root.set("faultsByKind", JSON.valueToTree(byKind));
        final ObjectNode invariants = root.putObject("invariants");
        for (final Verdict verdict : verdicts) {
            invariants
                    .putObject(verdict.invariant())
                    .put("pass", verdict.passed())
                    .put("detail", verdict.detail());
        }
        root.put("passed", passed(verdicts));
        try {
            return JSON.writeValueAsString(root);
        } catch (final JsonProcessingException e) {
            throw new IllegalStateException("could not write the chaos summary", e);
        }
    }

    static boolean passed(final List<Verdict> verdicts) {
        return !verdicts.isEmpty() && verdicts.stream().allMatch(Verdict::passed);
    }
}
