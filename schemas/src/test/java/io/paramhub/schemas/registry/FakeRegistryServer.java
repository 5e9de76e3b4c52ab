package io.paramhub.schemas.registry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A scripted HTTP server on an ephemeral port that records what the client under test sends. */
final class FakeRegistryServer implements AutoCloseable {

    /** One request as received. */
    record Request(String method, String rawPath, String contentType, String authorization, String body) {}

    /** The answer to send. */
    record Answer(int status, String body) {}

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    private FakeRegistryServer(final Function<Request, Answer> responder) throws IOException {
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> answer(exchange, responder));
        server.start();
    }

    static FakeRegistryServer start(final Function<Request, Answer> responder) throws IOException {
        return new FakeRegistryServer(responder);
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void answer(final HttpExchange exchange, final Function<Request, Answer> responder) throws IOException {
        try (exchange;
                InputStream in = exchange.getRequestBody();
                OutputStream out = exchange.getResponseBody()) {
            final Request request = new Request(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getRawPath(),
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    new String(in.readAllBytes(), StandardCharsets.UTF_8));
            requests.add(request);
            final Answer answer = responder.apply(request);
            final byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", HttpSchemaRegistryClient.CONTENT_TYPE);
            exchange.sendResponseHeaders(answer.status(), body.length);
            out.write(body);
        }
    }
}
