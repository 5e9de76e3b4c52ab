package io.paramhub.schemas.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Talks to a Confluent-compatible schema registry over its REST API
 * ({@code POST /subjects/{s}/versions}, {@code POST /subjects/{s}}, {@code GET /schemas/ids/{id}}).
 * Answers are cached, so each (subject, schema) and each id is asked for once. Given several base URLs,
 * a call that cannot connect is retried on the next one.
 */
public final class HttpSchemaRegistryClient implements SchemaRegistryClient {

    /** Content type of Confluent's REST API, version 1. */
    public static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    /** Connect and request timeout unless another one is given. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(HttpSchemaRegistryClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACCEPT =
            CONTENT_TYPE + ", application/vnd.schemaregistry+json; qs=0.9, application/json; qs=0.5";

    private final List<String> baseUrls;
    private final Duration timeout;
    private final String authorization;
    private final HttpClient http;
    private final AtomicInteger preferredUrl = new AtomicInteger();
    private final Map<SubjectSchema, Integer> ids = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();

    /** A client of the comma-separated {@code urls}, without authentication. */
    public HttpSchemaRegistryClient(final String urls) {
        this(urls, DEFAULT_TIMEOUT, null);
    }

    /**
     * A client of the comma-separated {@code urls}.
     *
     * @param basicAuthUserInfo {@code user:password} sent as HTTP basic credentials, or null for none
     */
    public HttpSchemaRegistryClient(final String urls, final Duration timeout, final String basicAuthUserInfo) {
        this(urls, timeout, basicAuthUserInfo, null);
    }

    /**
     * A client of the comma-separated {@code urls}.
     *
     * @param basicAuthUserInfo {@code user:password} sent as HTTP basic credentials, or null for none
     * @param trustStore what {@code https://} certificates are checked against, or null for the JVM's default
     */
    public HttpSchemaRegistryClient(
            final String urls,
            final Duration timeout,
            final String basicAuthUserInfo,
            final RegistryTrustStore trustStore) {
        this.baseUrls = parseUrls(urls);
        this.timeout = timeout;
        this.authorization = basicAuthUserInfo == null
                ? null
                : "Basic " + Base64.getEncoder().encodeToString(basicAuthUserInfo.getBytes(StandardCharsets.UTF_8));
        final HttpClient.Builder http = HttpClient.newBuilder().connectTimeout(timeout);
        if (trustStore != null) {
            http.sslContext(trustStore.sslContext());
        }
        this.http = http.build();
    }

    /** The base URLs, in the order they are tried. */
    public List<String> baseUrls() {
        return baseUrls;
    }

    @Override
    public int register(final String subject, final Schema schema) {
        final SubjectSchema key = new SubjectSchema(subject, schema);
        final Integer cached = ids.get(key);
        if (cached != null) {
            return cached;
        }
        final JsonNode answer = call(
                "POST", "/subjects/" + encode(subject) + "/versions", schemaBody(schema), "subject '" + subject + "'");
        final int id = requiredId(answer, subject);
        ids.putIfAbsent(key, id);
        schemas.putIfAbsent(id, schema);
        return id;
    }

    @Override
    public int lookupId(final String subject, final Schema schema) {
        final SubjectSchema key = new SubjectSchema(subject, schema);
        final Integer cached = ids.get(key);
        if (cached != null) {
            return cached;
        }
        final JsonNode answer =
                call("POST", "/subjects/" + encode(subject), schemaBody(schema), "subject '" + subject + "'");
        final int id = requiredId(answer, subject);
        ids.putIfAbsent(key, id);
        schemas.putIfAbsent(id, schema);
        return id;
    }

    @Override
    public Schema schemaById(final int id) {
        final Schema cached = schemas.get(id);
        if (cached != null) {
            return cached;
        }
        final String what = "schema id " + id;
        final JsonNode answer = call("GET", "/schemas/ids/" + id, null, what);
        final String type = answer.path("schemaType").asText("AVRO");
        if (!"AVRO".equals(type)) {
            throw new SchemaRegistryException(
                    "Schema registry returned a " + type + " schema for " + what + ", only AVRO is supported",
                    200,
                    SchemaRegistryException.INVALID_SCHEMA);
        }
        final Schema schema = parse(answer.path("schema").asText(null), what);
        final Schema previous = schemas.putIfAbsent(id, schema);
        return previous == null ? schema : previous;
    }

    @Override
    public RegisteredSchema latest(final String subject) {
        final String what = "latest version of subject '" + subject + "'";
        final JsonNode answer = call("GET", "/subjects/" + encode(subject) + "/versions/latest", null, what);
        final int id = requiredId(answer, subject);
        final Schema schema = schemaById(id);
        return new RegisteredSchema(id, schema);
    }

    private JsonNode call(final String method, final String path, final String body, final String what) {
        final int first = preferredUrl.get();
        IOException lastFailure = null;
        for (int i = 0; i < baseUrls.size(); i++) {
            final int index = (first + i) % baseUrls.size();
            final String url = baseUrls.get(index) + path;
            try {
                final HttpResponse<String> response = http.send(
                        request(method, url, body), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                preferredUrl.set(index);
                return answer(response, url, what);
            } catch (final IOException e) {
                log.warn("schema registry unreachable, url: {}, for: {}", url, what, e);
                lastFailure = e;
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SchemaRegistryException(
                        "Interrupted calling schema registry " + url + " for " + what,
                        SchemaRegistryException.NO_RESPONSE,
                        SchemaRegistryException.NO_RESPONSE,
                        e);
            }
        }
        throw new SchemaRegistryException(
                "No schema registry reachable at " + baseUrls + " for " + what,
                SchemaRegistryException.NO_RESPONSE,
                SchemaRegistryException.NO_RESPONSE,
                lastFailure);
    }

    private HttpRequest request(final String method, final String url, final String body) {
        final HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url))
                .timeout(timeout)
                .header("Accept", ACCEPT)
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            builder.header("Content-Type", CONTENT_TYPE);
        }
        if (authorization != null) {
            builder.header("Authorization", authorization);
        }
        return builder.build();
    }

    private static JsonNode answer(final HttpResponse<String> response, final String url, final String what) {
        final int status = response.statusCode();
        final JsonNode json = readJson(response.body());
        if (status / 100 == 2 && json != null) {
            return json;
        }
        final int errorCode = json == null ? status : json.path("error_code").asInt(status);
        final String message =
                json == null ? response.body() : json.path("message").asText(response.body());
        throw new SchemaRegistryException(
                "Schema registry " + url + " answered HTTP " + status + " (error_code " + errorCode + ": " + message
                        + ") for " + what,
                status,
                errorCode);
    }

    private static JsonNode readJson(final String body) {
        try {
            return body == null || body.isBlank() ? null : JSON.readTree(body);
        } catch (final JsonProcessingException e) {
            return null;
        }
    }

    private static int requiredId(final JsonNode answer, final String subject) {
        final JsonNode id = answer.get("id");
        if (id == null || !id.canConvertToInt()) {
            throw new SchemaRegistryException(
                    "Schema registry answer for subject '" + subject + "' has no id: " + answer,
                    200,
                    SchemaRegistryException.NO_RESPONSE);
        }
        return id.intValue();
    }

    private static String schemaBody(final Schema schema) {
        try {
            return JSON.writeValueAsString(Map.of("schema", schema.toString()));
        } catch (final JsonProcessingException e) {
            throw new IllegalStateException("cannot encode schema " + schema.getFullName() + " as JSON", e);
        }
    }

    private static Schema parse(final String text, final String what) {
        if (text == null) {
            throw new SchemaRegistryException(
                    "Schema registry answer for " + what + " has no schema",
                    200,
                    SchemaRegistryException.INVALID_SCHEMA);
        }
        try {
            return new Schema.Parser().parse(text);
        } catch (final SchemaParseException e) {
            throw new SchemaRegistryException(
                    "Schema registry returned an invalid Avro schema for " + what,
                    200,
                    SchemaRegistryException.INVALID_SCHEMA,
                    e);
        }
    }

    private static String encode(final String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static List<String> parseUrls(final String urls) {
        final List<String> parsed = Arrays.stream(urls.split(","))
                .map(String::trim)
                .filter(url -> !url.isEmpty())
                .map(HttpSchemaRegistryClient::checkedUrl)
                .toList();
        if (parsed.isEmpty()) {
            throw new IllegalArgumentException("no schema registry URL in '" + urls + "'");
        }
        return parsed;
    }

    private static String checkedUrl(final String url) {
        final URI uri = URI.create(url);
        if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("schema registry URL '" + url + "' is not http:// or https://");
        }
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private record SubjectSchema(String subject, Schema schema) {}
}
