package io.paramhub.orchestrator.http;

import io.paramhub.launcher.BearerToken;
import io.paramhub.launcher.BearerTokenHandler;
import io.paramhub.launcher.HttpEndpoint;
import io.paramhub.launcher.OpsEndpoints;
import io.paramhub.launcher.RouterVerticle;
import io.paramhub.orchestrator.dashboard.Dashboard;
import io.paramhub.topology.orchestrator.JobState;
import io.paramhub.topology.orchestrator.OrchestratorTopology;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The orchestrator's HTTP endpoint: {@code GET /jobs/{job}/workers} answers each worker's speed,
 * share, threads, straggler flag and the plan version it last applied ({@code appliedEpoch}; the job's
 * newest plan version is {@code epoch}) from {@code orchestrator-job-store}
 * (interactive query); a job held by another instance is a 307 to it (its {@code application.server});
 * 404 for an unknown job, 503 with {@code Retry-After} while Streams is not RUNNING; with a {@link BearerToken}
 * configured, 401 without {@code Authorization: Bearer <token>}.
 * {@code GET /health/live} answers 200; with {@link OpsEndpoints}, {@code /health/ready} and {@code /metrics} too;
 * with a {@link Dashboard}, its page ({@code /dashboard}) and feeds ({@code /jobs}, {@code /jobs/{job}/events}).
 */
public final class WorkersQueryServer implements AutoCloseable {

    private final HttpEndpoint endpoint;

    private WorkersQueryServer(final HttpEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** Starts the endpoint on {@code host}:{@code port} (0 = any free port); blocks until it listens. */
    public static WorkersQueryServer start(final KafkaStreams streams, final String host, final int port) {
        return start(streams, host, port, null);
    }

    /** As {@link #start(KafkaStreams, String, int)}, serving {@code ops} ({@code /health/ready}, {@code /metrics}) too. */
    public static WorkersQueryServer start(
            final KafkaStreams streams, final String host, final int port, final OpsEndpoints ops) {
        return start(streams, host, port, BearerToken.NONE, ops, null);
    }

    /**
     * As {@link #start(KafkaStreams, String, int, OpsEndpoints)}, guarding {@code /jobs/{job}/workers} with
     * {@code token} and serving the {@code dashboard}'s page and feed too when it is not null.
     */
    public static WorkersQueryServer start(
            final KafkaStreams streams,
            final String host,
            final int port,
            final BearerToken token,
            final OpsEndpoints ops,
            final Dashboard dashboard) {
        return new WorkersQueryServer(
                HttpEndpoint.start("orchestrator endpoint", new Endpoint(streams, host, port, token, ops, dashboard)));
    }

    public int port() {
        return endpoint.port();
    }

    @Override
    public void close() {
        endpoint.close();
    }

    /** The one verticle: routes as method references; store reads off the event loop. */
    private static final class Endpoint extends RouterVerticle {
        private final KafkaStreams streams;
        private final BearerToken token;
        private final OpsEndpoints ops;
        private final Dashboard dashboard;

        Endpoint(
                final KafkaStreams streams,
                final String host,
                final int port,
                final BearerToken token,
                final OpsEndpoints ops,
                final Dashboard dashboard) {
            super(host, port);
            this.streams = streams;
            this.token = token;
            this.ops = ops;
            this.dashboard = dashboard;
        }

        @Override
        protected void mount(final Router router) {
            if (ops != null) {
                ops.mount(router);
            } else {
                router.get("/health/live").handler(this::live);
            }
            router.get("/jobs/:job/workers")
                    .handler(new BearerTokenHandler(token))
                    .handler(this::workers);
            if (dashboard != null) {
                dashboard.mount(router);
            }
        }

        private void live(final RoutingContext context) {
            json(context, 200, new JsonObject().put("status", "UP"));
        }

        private void workers(final RoutingContext context) {
            final String job = context.pathParam("job");
            vertx.executeBlocking(() -> answer(job), false).onComplete(done -> {
                if (done.failed()) {
                    json(
                            context,
                            500,
                            new JsonObject()
                                    .put("error", String.valueOf(done.cause().getMessage())));
                    return;
                }
                final Answer answer = done.result();
                if (answer.redirect() != null) {
                    context.response()
                            .setStatusCode(307)
                            .putHeader(
                                    "Location",
                                    answer.redirect() + context.request().uri())
                            .end();
                    return;
                }
                if (answer.status() == 503) {
                    context.response().putHeader("Retry-After", "1");
                }
                json(context, answer.status(), answer.body());
            });
        }

        private record Answer(int status, JsonObject body, String redirect) {}

        private Answer answer(final String job) {
            if (streams.state() != KafkaStreams.State.RUNNING) {
                return unavailable("Kafka Streams is " + streams.state());
            }
            final KeyQueryMetadata metadata =
                    streams.queryMetadataForKey(OrchestratorTopology.JOB_STATE_STORE, job, new StringSerializer());
            final JobState state;
            try {
                // without application.server Streams knows no partition for the key: read every local one
                final StoreQueryParameters<ReadOnlyKeyValueStore<String, JobState>> parameters =
                        StoreQueryParameters.fromNameAndType(
                                OrchestratorTopology.JOB_STATE_STORE, QueryableStoreTypes.keyValueStore());
                final ReadOnlyKeyValueStore<String, JobState> store = streams.store(
                        metadata.partition() < 0 ? parameters : parameters.withPartition(metadata.partition()));
                state = store.get(job);
            } catch (final InvalidStateStoreException e) {
                if (metadata.activeHost() != null && metadata.activeHost().port() > 0) {
                    return new Answer(
                            307,
                            null,
                            "http://" + metadata.activeHost().host() + ":"
                                    + metadata.activeHost().port());
                }
                return unavailable("the job's state is not queryable here: " + e.getMessage());
            }
            if (state == null) {
                return new Answer(404, new JsonObject().put("error", "no telemetry of job " + job + " seen"), null);
            }
            final JsonArray workers = new JsonArray();
            state.workers()
                    .forEach((worker, w) -> workers.add(new JsonObject()
                            .put("worker", worker)
                            .put("speed", w.speed())
                            .put("fixedMs", w.fixedMs())
                            .put("share", w.share())
                            .put("threads", w.threads())
                            .put("plannedShare", w.plannedShare())
                            .put("plannedThreads", w.plannedThreads())
                            .put("straggler", w.straggler())
                            .put("appliedEpoch", w.appliedPlanVersion())
                            .put("lastClock", w.lastClock())));
            return new Answer(
                    200,
                    new JsonObject()
                            .put("job", job)
                            .put("epoch", state.planVersion())
                            .put("workers", workers),
                    null);
        }

        private static Answer unavailable(final String why) {
            return new Answer(503, new JsonObject().put("error", why), null);
        }

        private static void json(final RoutingContext context, final int status, final JsonObject body) {
            context.response()
                    .setStatusCode(status)
                    .putHeader("Content-Type", "application/json")
                    .end(body.encode());
        }
    }
}
