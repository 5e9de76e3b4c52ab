package io.paramhub.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start-up check of an aggregator: reads the configs of the topics its restore and replay read
 * ({@code gradients}, {@code model} and the app's Streams changelogs, {@code <application.id>-*-changelog})
 * with {@code Admin.describeConfigs} and refuses a retention that would lose what they need
 * ({@link RetentionRequirement}), or only warns when the user accepts it.
 */
public final class RetentionCheck {

    /** The option that turns the refusal into a warning. */
    public static final String ACCEPT_OPTION = "--accept-short-retention";

    private static final Logger log = LoggerFactory.getLogger(RetentionCheck.class);
    private static final long TIMEOUT_SECONDS = 30;
    private static final String CHANGELOG_SUFFIX = "-changelog";

    private final Admin admin;

    public RetentionCheck(final Admin admin) {
        this.admin = admin;
    }

    /** Fails naming each topic, setting and minimum that falls short; with {@code accept}, logs them instead. */
    public void enforce(final TopicCatalog topics, final String applicationId, final boolean accept) {
        final List<String> problems = problems(topics, applicationId);
        if (problems.isEmpty()) {
            return;
        }
        if (accept) {
            problems.forEach(problem -> log.warn("accepted ({}): {}", ACCEPT_OPTION, problem));
            return;
        }
        throw new IllegalStateException("the retention of topics this aggregator restores from is too short:\n  "
                + String.join("\n  ", problems)
                + "\nraise it (kafka-configs.sh --alter --entity-type topics --entity-name TOPIC --add-config "
                + "SETTING=VALUE), or start with " + ACCEPT_OPTION + " to run anyway");
    }

    /** Each shortfall, one line per topic and setting; empty when there is none. */
    public List<String> problems(final TopicCatalog topics, final String applicationId) {
        final Map<String, RetentionRequirement> required = new LinkedHashMap<>();
        required.put(topics.gradients().name(), RetentionRequirement.gradients());
        required.put(
                topics.model().name(),
                RetentionRequirement.compactedState(
                        "model replicas and restarted workers need each shard's newest" + " version"));
        for (final String name : AdminCalls.call(
                "listing topics",
                TIMEOUT_SECONDS,
                () -> admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS))) {
            if (name.startsWith(applicationId + "-") && name.endsWith(CHANGELOG_SUFFIX)) {
                required.put(
                        name, RetentionRequirement.compactedState("a restored store needs each key's newest record"));
            }
        }
        final Map<String, Map<String, String>> configs =
                TopicConfigs.describe(admin, required.keySet(), TIMEOUT_SECONDS);
        final List<String> problems = new ArrayList<>();
        required.forEach((topic, requirement) -> {
            final Map<String, String> topicConfigs = configs.get(topic);
            if (topicConfigs != null) {
                problems.addAll(requirement.problems(topic, topicConfigs));
            }
        });
        return problems;
    }
}
