package io.paramhub.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

/** Reads the effective configs of topics (set on the topic or inherited from the broker) by topic and name. */
final class TopicConfigs {

    private TopicConfigs() {}

    /** The configs of each of {@code names}, without those that have no value; fails as {@link AdminCalls} does. */
    static Map<String, Map<String, String>> describe(
            final Admin admin, final Iterable<String> names, final long timeoutSeconds) {
        final List<ConfigResource> resources = new ArrayList<>();
        names.forEach(name -> resources.add(new ConfigResource(ConfigResource.Type.TOPIC, name)));
        final Map<ConfigResource, Config> described = AdminCalls.call(
                "reading topic configs",
                timeoutSeconds,
                () -> admin.describeConfigs(resources).all().get(timeoutSeconds, TimeUnit.SECONDS));
        final Map<String, Map<String, String>> byTopic = new LinkedHashMap<>();
        described.forEach((resource, config) -> {
            final Map<String, String> values = new LinkedHashMap<>();
            for (final ConfigEntry entry : config.entries()) {
                if (entry.value() != null) {
                    values.put(entry.name(), entry.value());
                }
            }
            byTopic.put(resource.name(), values);
        });
        return byTopic;
    }
}
