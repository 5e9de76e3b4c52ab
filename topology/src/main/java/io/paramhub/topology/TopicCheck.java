package io.paramhub.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.AuthorizationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start-up check of every ParamHub app: describes the ParamHub topics it uses ({@code Admin.describeCluster},
 * {@code describeTopics}, {@code describeConfigs}) and compares each with its {@link TopicExpectation}. Logs the
 * warnings, and refuses to start on a fatal drift unless told to accept it ({@value #ACCEPT_OPTION}). Topics that
 * do not exist yet are skipped: the app that creates them creates them as expected.
 */
public final class TopicCheck {

    /** The option that turns the refusal into a warning. */
    public static final String ACCEPT_OPTION = "--accept-topic-drift";

    private static final Logger log = LoggerFactory.getLogger(TopicCheck.class);
    private static final long TIMEOUT_SECONDS = 30;

    private final Admin admin;
    private final String bootstrapServers;

    /** {@code bootstrapServers} goes into the fix commands of the messages. */
    public TopicCheck(final Admin admin, final String bootstrapServers) {
        this.admin = admin;
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * Logs each warning; fails naming each fatal drift (topic, setting, value, expected value, why, fix), or with
     * {@code accept} logs those too.
     */
    public void enforce(final List<TopicExpectation> expectations, final boolean accept) {
        final List<TopicDrift> drifts;
        try {
            drifts = drifts(expectations);
        } catch (final IllegalStateException e) {
            if (!(e.getCause() instanceof AuthorizationException)) {
                throw e;
            }
            final String what = "cannot check ParamHub's topics (" + e.getMessage() + "): grant this app's principal "
                    + "DESCRIBE and DESCRIBE_CONFIGS on its topics (docs/operating.md, \"Secured clusters\")";
            if (!accept) {
                throw new IllegalStateException(what + ", or start with " + ACCEPT_OPTION + " to run unchecked", e);
            }
            log.warn("accepted ({}): {}", ACCEPT_OPTION, what);
            return;
        }
        final List<String> fatal = new ArrayList<>();
        for (final TopicDrift drift : drifts) {
            if (!drift.fatal()) {
                log.warn("{}", drift.message());
            } else if (accept) {
                log.warn("accepted ({}): {}", ACCEPT_OPTION, drift.message());
            } else {
                fatal.add(drift.message());
            }
        }
        if (!fatal.isEmpty()) {
            throw new IllegalStateException("ParamHub topics are not as ParamHub needs them:\n  "
                    + String.join("\n  ", fatal)
                    + "\nfix them as shown, or start with " + ACCEPT_OPTION + " to run anyway");
        }
    }

    /** Every drift of the existing topics among {@code expectations}, warnings and fatal ones. */
    public List<TopicDrift> drifts(final List<TopicExpectation> expectations) {
        final Set<String> existing = AdminCalls.call(
                "listing topics",
                TIMEOUT_SECONDS,
                () -> admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        final Map<String, TopicExpectation> checked = new LinkedHashMap<>();
        for (final TopicExpectation expectation : expectations) {
            if (existing.contains(expectation.layout().name())) {
                checked.put(expectation.layout().name(), expectation);
            } else {
                log.debug(
                        "topic {} does not exist yet: not checked",
                        expectation.layout().name());
            }
        }
        if (checked.isEmpty()) {
            return List.of();
        }
        final int brokers = AdminCalls.call(
                        "describing the cluster",
                        TIMEOUT_SECONDS,
                        () -> admin.describeCluster().nodes().get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .size();
        final Map<String, TopicDescription> descriptions = AdminCalls.call(
                "describing topics",
                TIMEOUT_SECONDS,
                () -> admin.describeTopics(checked.keySet()).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        final Map<String, Map<String, String>> configs =
                TopicConfigs.describe(admin, checked.keySet(), TIMEOUT_SECONDS);
        final List<TopicDrift> drifts = new ArrayList<>();
        checked.forEach((name, expectation) -> {
            final int replicas = descriptions.get(name).partitions().stream()
                    .mapToInt(partition -> partition.replicas().size())
                    .min()
                    .orElse(0);
            drifts.addAll(expectation.drifts(
                    new TopicExpectation.Observed(replicas, configs.getOrDefault(name, Map.of())),
                    brokers,
                    bootstrapServers));
        });
        return drifts;
    }
}
