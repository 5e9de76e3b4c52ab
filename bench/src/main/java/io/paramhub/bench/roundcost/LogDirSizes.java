package io.paramhub.bench.roundcost;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;

/**
 * The size of every partition replica on every broker of a cluster, from {@code Admin.describeLogDirs}: the
 * bytes of its log segments. Replicas being moved to another directory (future replicas) and offline
 * directories are left out. Reads cluster metadata only.
 */
final class LogDirSizes {

    private static final long TIMEOUT_SECONDS = 30;

    private LogDirSizes() {}

    static List<ReplicaSize> read(final Admin admin) {
        try {
            final List<Integer> brokers =
                    admin.describeCluster().nodes().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).stream()
                            .map(Node::id)
                            .toList();
            final Map<Integer, Map<String, LogDirDescription>> dirs =
                    admin.describeLogDirs(brokers).allDescriptions().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            final List<ReplicaSize> sizes = new ArrayList<>();
            dirs.forEach((broker, byPath) -> byPath.forEach((path, dir) -> {
                if (dir.error() == null) {
                    for (final Map.Entry<TopicPartition, ReplicaInfo> replica :
                            dir.replicaInfos().entrySet()) {
                        if (!replica.getValue().isFuture()) {
                            sizes.add(new ReplicaSize(
                                    replica.getKey().topic(),
                                    replica.getKey().partition(),
                                    broker,
                                    path,
                                    replica.getValue().size()));
                        }
                    }
                }
            }));
            return sizes;
        } catch (final ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not describe the brokers' log directories: " + e.getMessage(), e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted describing the brokers' log directories", e);
        }
    }
}
