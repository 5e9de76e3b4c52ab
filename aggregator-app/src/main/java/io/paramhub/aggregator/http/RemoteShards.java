package io.paramhub.aggregator.http;

import io.paramhub.launcher.BearerToken;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Asks the aggregator instance hosting a shard for it, with {@code GET /internal/shards/{job}/{shard}}:
 * 200 is the shard, 404 means it does not exist there, and anything else, or no answer within the
 * timeout, makes the model unavailable for now. Sends this instance's {@link BearerToken}, which every
 * instance shares.
 */
final class RemoteShards {

    static final String PATH = "/internal/shards/";

    private final WebClient client;
    private final long timeoutMs;
    private final BearerToken token;

    RemoteShards(final WebClient client, final long timeoutMs, final BearerToken token) {
        this.client = client;
        this.timeoutMs = timeoutMs;
        this.token = token;
    }

    Future<Optional<ShardSnapshot>> fetch(final HostInfo host, final String job, final int shard) {
        final String instance = host.host() + ":" + host.port();
        final HttpRequest<Buffer> request = client.get(host.port(), host.host(), PATH + encode(job) + "/" + shard)
                .timeout(timeoutMs);
        if (token.required()) {
            request.putHeader("Authorization", token.authorization());
        }
        return request.send()
                .transform((response, failure) -> failure != null
                        ? Future.failedFuture(new ModelUnavailableException(
                                "instance " + instance + " did not answer for shard " + shard + " of job " + job + ": "
                                        + failure.getMessage(),
                                failure))
                        : answer(response, instance, job, shard));
    }

    private static Future<Optional<ShardSnapshot>> answer(
            final HttpResponse<Buffer> response, final String instance, final String job, final int shard) {
        return switch (response.statusCode()) {
            case 200 ->
                Future.succeededFuture(Optional.of(ShardSnapshot.fromJson(response.bodyAsJsonObject(), instance)));
            case 404 -> Future.succeededFuture(Optional.empty());
            default ->
                Future.failedFuture(
                        new ModelUnavailableException("instance " + instance + " answered " + response.statusCode()
                                + " for shard " + shard + " of job " + job + ": " + response.bodyAsString()));
        };
    }

    private static String encode(final String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
