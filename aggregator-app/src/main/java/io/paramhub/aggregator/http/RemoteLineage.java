package io.paramhub.aggregator.http;

import io.paramhub.launcher.BearerToken;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Asks the aggregator instance holding a job's shard 0 for a version's lineage, with
 * {@code GET /internal/lineage/{job}?version=V}: its 200, 400 or 404 is the answer; anything else, or no answer
 * within the timeout, makes the lineage unavailable for now. Sends this instance's {@link BearerToken}.
 */
final class RemoteLineage {

    static final String PATH = "/internal/lineage/";

    private final WebClient client;
    private final long timeoutMs;
    private final BearerToken token;

    RemoteLineage(final WebClient client, final long timeoutMs, final BearerToken token) {
        this.client = client;
        this.timeoutMs = timeoutMs;
        this.token = token;
    }

    /** The lineage of {@code version} of {@code job} (negative: the latest) as {@code host} answers it. */
    Future<LineageAnswer> fetch(final HostInfo host, final String job, final long version) {
        final String instance = host.host() + ":" + host.port();
        final String path = PATH
                + URLEncoder.encode(job, StandardCharsets.UTF_8).replace("+", "%20")
                + (version < 0 ? "" : "?version=" + version);
        final HttpRequest<Buffer> request =
                client.get(host.port(), host.host(), path).timeout(timeoutMs);
        if (token.required()) {
            request.putHeader("Authorization", token.authorization());
        }
        return request.send()
                .transform((response, failure) -> failure != null
                        ? Future.failedFuture(new ModelUnavailableException(
                                "instance " + instance + " did not answer for the lineage of job " + job + ": "
                                        + failure.getMessage(),
                                failure))
                        : answer(response, instance, job));
    }

    private static Future<LineageAnswer> answer(
            final HttpResponse<Buffer> response, final String instance, final String job) {
        return switch (response.statusCode()) {
            case 200, 400, 404 ->
                Future.succeededFuture(new LineageAnswer(response.statusCode(), response.bodyAsJsonObject()));
            default ->
                Future.failedFuture(new ModelUnavailableException("instance " + instance + " answered "
                        + response.statusCode() + " for the lineage of job " + job + ": " + response.bodyAsString()));
        };
    }
}
