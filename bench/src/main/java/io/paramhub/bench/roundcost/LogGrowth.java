package io.paramhub.bench.roundcost;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Bytes the brokers wrote per topic, from a series of log-dir samples (the first before a run, the last
 * after it): per replica, what it grew by from one sample to the next, summed. A replica first seen after
 * the first sample was created during the run and grew from 0. A log only shrinks when the broker drops
 * data (compaction, retention): what was written to that replica between those two samples is then not
 * counted, and its topic's figure is marked a lower bound. Holds no connection; fed by {@link LogDirSampler}.
 */
public final class LogGrowth {

    private final Map<String, String> topicOf = new HashMap<>();
    private final Map<String, Long> before = new HashMap<>();
    private final Map<String, Long> last = new HashMap<>();
    private final Map<String, Long> written = new HashMap<>();
    private final Set<String> shrank = new HashSet<>();
    private boolean first = true;

    /** Takes one sample: every replica's size now. */
    synchronized void offer(final Collection<ReplicaSize> sample) {
        for (final ReplicaSize size : sample) {
            final String replica = size.replica();
            topicOf.put(replica, size.topic());
            final Long previous = last.put(replica, size.bytes());
            if (previous == null) {
                if (first) {
                    before.put(replica, size.bytes());
                } else {
                    written.merge(replica, size.bytes(), Long::sum);
                }
            } else if (size.bytes() >= previous) {
                written.merge(replica, size.bytes() - previous, Long::sum);
            } else {
                shrank.add(replica);
            }
        }
        first = false;
    }

    /** Every topic the brokers wrote to since the first sample, most bytes first (then by name). */
    public synchronized List<TopicBytes> topics() {
        final Map<String, long[]> byTopic = new TreeMap<>();
        final Set<String> lowerBounds = new HashSet<>();
        topicOf.forEach((replica, topic) -> {
            final long[] sums = byTopic.computeIfAbsent(topic, ignored -> new long[3]);
            sums[0] += written.getOrDefault(replica, 0L);
            sums[1] += before.getOrDefault(replica, 0L);
            sums[2] += last.get(replica);
            if (shrank.contains(replica)) {
                lowerBounds.add(topic);
            }
        });
        final List<TopicBytes> topics = new ArrayList<>();
        byTopic.forEach((topic, sums) -> {
            if (sums[0] > 0) {
                topics.add(new TopicBytes(topic, sums[0], sums[1], sums[2], lowerBounds.contains(topic)));
            }
        });
        topics.sort(
                Comparator.comparingLong(TopicBytes::bytesWritten).reversed().thenComparing(TopicBytes::topic));
        return topics;
    }
}
