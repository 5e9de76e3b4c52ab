package io.paramhub.aggregator.http;

import io.paramhub.launcher.BearerToken;
import io.paramhub.launcher.HttpEndpoint;
import io.paramhub.launcher.OpsEndpoints;
import io.paramhub.topology.aggregator.LineageHistory;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The aggregator's HTTP server (Vert.x): serves the current model of a job from the aggregator's
 * stores, gathered across instances with Kafka Streams interactive queries, and the lineage of its versions.
 *
 * <p>Routes:
 * <ul>
 *   <li>{@code GET /jobs/{job}/model}: 200 with
 *   <pre>{@code
 * {"job": "j", "parameterCount": 17, "shardCount": 4,
 *  "complete": true,        // every shard 0..shardCount-1 was found
 *  "missingShards": [],     // shards not found (a job whose fan-out has not reached every shard yet)
 *  "minVersion": 3, "maxVersion": 3, "minClock": 3,   // over the shards found
 *  "shards": [{"shard": 0, "version": 3, "minClock": 3, "firstParameter": 0,
 *              "servedBy": "local",       // or the host:port of the instance that served it
 *              "values": [0.125, ...]}, ...]}   // in shard order
 *   }</pre>
 *   {@code firstParameter} places a shard's {@code values} in the full vector of {@code parameterCount}
 *   values; each value is the float32 parameter widened to double (so narrowing it back is exact).
 *   Shards may be at different versions while training runs. The job's shape comes from shard 0's
 *   {@code shard-job-store} entry: 404 {@code {"error": ...}} when no instance knows it.</li>
 *   <li>{@code GET /jobs/{job}/lineage?version=V} ({@code version} optional: the latest): the lineage of a
 *   topic-mode job's model version, the data-topic offsets its shard 0 was trained on, 200 with
 *   <pre>{@code
 * {"job": "j", "version": 12, "examples": 1496,     // offsets covered, ranges merged
 *  "ranges": [{"partition": 0, "start": 0, "end": 750}, {"partition": 1, "start": 0, "end": 746}]}
 *   }</pre>
 *   from the {@link LineageHistory} of the instance that holds shard 0 (a job trained on files: no ranges).
 *   404 {@code {"error", "oldestVersion", "latestVersion"}} for a version older than that instance keeps
 *   (since shard 0 started or was restored there, at least {@link LineageHistory#VERSIONS_CONFIG} versions) or
 *   beyond the latest; 404 for an unknown job; 400 for a version that is not a whole number 0 or more.
 *   Another instance answers {@code GET /internal/lineage/{job}?version=V} from its own history.</li>
 *   <li>{@code GET /internal/shards/{job}/{shard}}: one shard from this instance's stores only,
 *   {@code {"job", "shard", "shardCount", "parameterCount", "version", "minClock", "firstParameter",
 *   "values"}}; 404 when the job or shard is unknown. Other instances call it.</li>
 *   <li>{@code GET /health/live}: 200 {@code {"status": "UP"}}; with {@link OpsEndpoints}, also
 *   {@code GET /health/ready} (200 while Kafka Streams is RUNNING, else 503) and {@code GET /metrics}
 *   (Prometheus).</li>
 * </ul>
 * The model and lineage routes answer 503 {@code {"error": ...}} with {@code Retry-After: 1} while Kafka Streams
 * is not RUNNING (starting, rebalancing, stopping), a store is not queryable, or an instance hosting
 * a shard does not answer.
 *
 * <p>With a {@link BearerToken} configured, the model and lineage routes answer 401 without
 * {@code Authorization: Bearer <token>}, and an instance sends its token when it asks another for a shard (so
 * every instance must have the same token); the health and metrics routes stay open.
 *
 * <p>Each instance must set Kafka Streams' {@code application.server} to the {@code host:port} at which
 * the other instances reach this server; without it a single instance still serves its own shards.
 */
public final class ModelQueryServer implements AutoCloseable {

    private final HttpEndpoint endpoint;

    private ModelQueryServer(final HttpEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * Starts a server for the stores of {@code streams} and the lineage kept in {@code lineage} (the instance's,
     * as its topology was built with) on {@code host}:{@code port} (0 for any free port), with no token; blocks
     * until it listens.
     */
    public static ModelQueryServer start(
            final KafkaStreams streams, final LineageHistory lineage, final String host, final int port) {
        return start(streams, lineage, host, port, null, BearerToken.NONE);
    }

    /**
     * As {@link #start(KafkaStreams, LineageHistory, String, int)}, serving {@code ops} ({@code /health/ready},
     * {@code /metrics}) too when not null, and guarding the model and lineage routes with {@code token}.
     */
    public static ModelQueryServer start(
            final KafkaStreams streams,
            final LineageHistory lineage,
            final String host,
            final int port,
            final OpsEndpoints ops,
            final BearerToken token) {
        return start(new StreamsShardLocator(streams), lineage::at, host, port, ops, token);
    }

    /** A server over {@code locator} that keeps no lineage. */
    static ModelQueryServer start(final ShardLocator locator, final String host, final int port) {
        return start(locator, host, port, null, BearerToken.NONE);
    }

    static ModelQueryServer start(
            final ShardLocator locator,
            final String host,
            final int port,
            final OpsEndpoints ops,
            final BearerToken token) {
        return start(locator, (job, version) -> new LineageHistory.Lookup.Unknown(), host, port, ops, token);
    }

    static ModelQueryServer start(
            final ShardLocator locator,
            final LineageSource lineage,
            final String host,
            final int port,
            final OpsEndpoints ops,
            final BearerToken token) {
        return new ModelQueryServer(HttpEndpoint.start(
                "model query server", new ModelQueryVerticle(locator, lineage, host, port, ops, token)));
    }

    /** The port the server listens on. */
    public int port() {
        return endpoint.port();
    }

    @Override
    public void close() {
        endpoint.close();
    }
}
