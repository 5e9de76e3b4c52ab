package io.paramhub.aggregator.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Gets the shards of a job without blocking the event loop: each lookup in this instance's stores
 * runs on a worker thread, and a shard hosted elsewhere is fetched from its instance with {@link RemoteShards}.
 */
final class ShardFetcher {

    private final Vertx vertx;
    private final ShardLocator locator;
    private final RemoteShards remote;

    ShardFetcher(final Vertx vertx, final ShardLocator locator, final RemoteShards remote) {
        this.vertx = vertx;
        this.locator = locator;
        this.remote = remote;
    }

    /** Looks the shard up in this instance's stores only. */
    Future<ShardLookup> locateHere(final String job, final int shard) {
        return vertx.executeBlocking(() -> locator.locate(job, shard), false);
    }

    /** The shard, wherever it is hosted; empty when its host does not have it. */
    Future<Optional<ShardSnapshot>> fetch(final String job, final int shard) {
        return locateHere(job, shard).compose(lookup -> {
            if (lookup instanceof ShardLookup.Found found) {
                return Future.succeededFuture(Optional.of(found.snapshot()));
            }
            if (lookup instanceof ShardLookup.Elsewhere elsewhere) {
                return remote.fetch(elsewhere.host(), job, shard);
            }
            return Future.succeededFuture(Optional.empty());
        });
    }

    /** Every shard of the job {@code first} (its shard 0) belongs to, fetched in parallel. */
    Future<JobModel> fetchModel(final ShardSnapshot first) {
        final List<Future<Optional<ShardSnapshot>>> others = new ArrayList<>();
        for (int shard = 1; shard < first.shardCount(); shard++) {
            others.add(fetch(first.job(), shard));
        }
        return Future.all(others).map(all -> {
            final List<ShardSnapshot> shards = new ArrayList<>();
            shards.add(first);
            others.forEach(other -> other.result().ifPresent(shards::add));
            return new JobModel(first.job(), first.shardCount(), first.parameterCount(), shards);
        });
    }
}
