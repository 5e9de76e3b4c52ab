package io.paramhub.registry;

import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The handlers of Confluent's REST API: each parses its request, reads the {@link RegistryState} or hands a
 * write to the {@link SchemaStore} (never blocking the event loop), and answers JSON; refusals become
 * Confluent error bodies {@code {"error_code":n,"message":"..."}}. A read that finds nothing reads the log
 * once more before it answers 404, so that a schema another registry instance has just registered is found.
 */
final class RegistryHandlers {

    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private static final Logger log = LoggerFactory.getLogger(RegistryHandlers.class);
    private static final Set<String> REQUEST_TYPES =
            Set.of(CONTENT_TYPE, "application/vnd.schemaregistry+json", "application/json", "application/octet-stream");
    private static final String LATEST = "latest";

    private final SchemaStore store;

    RegistryHandlers(final SchemaStore store) {
        this.store = store;
    }

    void checkContentType(final RoutingContext ctx) {
        final String header = ctx.request().getHeader("Content-Type");
        final String type =
                header == null ? null : header.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (type == null || type.isEmpty() || REQUEST_TYPES.contains(type)) {
            ctx.next();
        } else {
            error(ctx, 415, 415, "HTTP 415 Unsupported Media Type: " + header);
        }
    }

    void root(final RoutingContext ctx) {
        json(ctx, 200, new JsonObject());
    }

    void register(final RoutingContext ctx) {
        final String subject = ctx.pathParam("subject");
        final Schema schema = schemaFrom(ctx);
        answerLater(ctx, store.register(subject, schema), id -> new JsonObject().put("id", id));
    }

    void lookup(final RoutingContext ctx) {
        final String subject = ctx.pathParam("subject");
        final Schema schema = schemaFrom(ctx);
        answerFresh(ctx, () -> {
            if (state().liveVersions(subject).isEmpty()) {
                throw RegistryException.subjectNotFound(subject);
            }
            return versionJson(state().find(subject, schema)
                            .orElseThrow(() -> RegistryException.schemaNotFound("under subject '" + subject + "'")))
                    .encode();
        });
    }

    void listSubjects(final RoutingContext ctx) {
        json(ctx, 200, new JsonArray(List.copyOf(state().subjects())));
    }

    void listVersions(final RoutingContext ctx) {
        answerFresh(ctx, () -> {
            final JsonArray versions = new JsonArray();
            liveVersions(ctx.pathParam("subject")).forEach(version -> versions.add(version.version()));
            return versions.encode();
        });
    }

    void getVersion(final RoutingContext ctx) {
        final String subject = ctx.pathParam("subject");
        final String versionParam = ctx.pathParam("version");
        if (!isLatest(versionParam)) {
            parseVersion(versionParam);
        }
        answerFresh(ctx, () -> versionJson(version(subject, versionParam)).encode());
    }

    void schemaById(final RoutingContext ctx) {
        final String id = ctx.pathParam("id");
        answerFresh(ctx, () -> {
            final Schema schema = parseId(id)
                    .flatMap(state()::schemaById)
                    .orElseThrow(() -> RegistryException.schemaNotFound("id " + id));
            return new JsonObject().put("schema", schema.toString()).encode();
        });
    }

    void globalConfig(final RoutingContext ctx) {
        json(
                ctx,
                200,
                new JsonObject().put("compatibilityLevel", state().globalLevel().name()));
    }

    void subjectConfig(final RoutingContext ctx) {
        final String subject = ctx.pathParam("subject");
        final boolean defaultToGlobal = Boolean.parseBoolean(ctx.request().getParam("defaultToGlobal"));
        final CompatibilityLevel level = state().subjectLevel(subject)
                .or(() -> defaultToGlobal ? Optional.of(state().globalLevel()) : Optional.empty())
                .orElseThrow(() -> RegistryException.subjectLevelConfigNotFound(subject));
        json(ctx, 200, new JsonObject().put("compatibilityLevel", level.name()));
    }

    void putGlobalConfig(final RoutingContext ctx) {
        putConfig(ctx, null);
    }

    void putSubjectConfig(final RoutingContext ctx) {
        putConfig(ctx, ctx.pathParam("subject"));
    }

    void compatibility(final RoutingContext ctx) {
        final String subject = ctx.pathParam("subject");
        final String versionParam = ctx.pathParam("version");
        final Schema schema = schemaFrom(ctx);
        final CompatibilityLevel level = state().effectiveLevel(subject);
        final List<String> problems = isLatest(versionParam)
                ? level.check(schema, liveVersions(subject))
                : level.checkAgainst(schema, version(subject, versionParam));
        final JsonObject answer = new JsonObject().put("is_compatible", problems.isEmpty());
        if (Boolean.parseBoolean(ctx.request().getParam("verbose"))) {
            answer.put("messages", new JsonArray(List.copyOf(problems)));
        }
        json(ctx, 200, answer);
    }

    void notFound(final RoutingContext ctx) {
        error(ctx, 404, 404, "HTTP 404 Not Found");
    }

    void failure(final RoutingContext ctx) {
        final Throwable failure = unwrap(ctx.failure());
        if (failure instanceof RegistryException refusal) {
            error(ctx, refusal.httpStatus(), refusal.errorCode(), refusal.getMessage());
        } else if (failure instanceof DecodeException || failure instanceof ClassCastException) {
            error(ctx, 400, 400, "Malformed JSON request body: " + failure.getMessage());
        } else if (failure == null && ctx.statusCode() > 0) {
            error(ctx, ctx.statusCode(), ctx.statusCode(), "HTTP " + ctx.statusCode());
        } else {
            log.error(
                    "schema registry request failed, method: {}, path: {}",
                    ctx.request().method(),
                    ctx.request().path(),
                    failure);
            error(ctx, 500, 50001, "Internal error: " + (failure == null ? "unknown" : failure.getMessage()));
        }
    }

    private void putConfig(final RoutingContext ctx, final String subject) {
        final Object requested = body(ctx).getValue("compatibility");
        final CompatibilityLevel level = CompatibilityLevel.parse(requested instanceof String name ? name : null)
                .orElseThrow(() -> RegistryException.invalidCompatibilityLevel(requested));
        answerLater(ctx, store.setLevel(subject, level), set -> new JsonObject().put("compatibility", set.name()));
    }

    private RegistryState state() {
        return store.state();
    }

    private List<SchemaVersion> liveVersions(final String subject) {
        final List<SchemaVersion> versions = state().liveVersions(subject);
        if (versions.isEmpty()) {
            throw RegistryException.subjectNotFound(subject);
        }
        return versions;
    }

    private SchemaVersion version(final String subject, final String versionParam) {
        final boolean latest = isLatest(versionParam);
        final int number = latest ? -1 : parseVersion(versionParam);
        final List<SchemaVersion> versions = liveVersions(subject);
        if (latest) {
            return versions.get(versions.size() - 1);
        }
        return versions.stream()
                .filter(version -> version.version() == number)
                .findFirst()
                .orElseThrow(() -> RegistryException.versionNotFound(subject, number));
    }

    private static boolean isLatest(final String versionParam) {
        return LATEST.equalsIgnoreCase(versionParam) || "-1".equals(versionParam);
    }

    private static int parseVersion(final String versionParam) {
        try {
            final int number = Integer.parseInt(versionParam);
            if (number >= 1) {
                return number;
            }
        } catch (final NumberFormatException e) {
            // answered below
        }
        throw RegistryException.invalidVersion(versionParam);
    }

    private static Optional<Integer> parseId(final String id) {
        try {
            return Optional.of(Integer.parseInt(id));
        } catch (final NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Schema schemaFrom(final RoutingContext ctx) {
        final JsonObject body = body(ctx);
        final String type = body.getString("schemaType", "AVRO");
        if (!"AVRO".equalsIgnoreCase(type)) {
            throw RegistryException.invalidSchema("schemaType " + type + " is not supported, only AVRO");
        }
        final JsonArray references = body.getJsonArray("references");
        if (references != null && !references.isEmpty()) {
            throw RegistryException.invalidSchema("schema references are not supported");
        }
        final String text = body.getString("schema");
        if (text == null || text.isBlank()) {
            throw RegistryException.invalidSchema("the request has no schema");
        }
        try {
            return new Schema.Parser().parse(text);
        } catch (final RuntimeException e) {
            throw RegistryException.invalidSchema(text + ": " + e.getMessage());
        }
    }

    private static JsonObject body(final RoutingContext ctx) {
        final JsonObject body = ctx.body().asJsonObject();
        if (body == null) {
            throw new DecodeException("the request has no body");
        }
        return body;
    }

    private static JsonObject versionJson(final SchemaVersion version) {
        return new JsonObject()
                .put("subject", version.subject())
                .put("version", version.version())
                .put("id", version.id())
                .put("schema", version.schemaText());
    }

    /**
     * Answers 200 with {@code read}; when it finds nothing (a 404 refusal), reads the log again first, then
     * answers what {@code read} finds then.
     */
    private void answerFresh(final RoutingContext ctx, final Supplier<String> read) {
        try {
            send(ctx, 200, read.get());
        } catch (final RegistryException e) {
            if (e.httpStatus() != 404) {
                throw e;
            }
            Future.fromCompletionStage(store.refresh(), ctx.vertx().getOrCreateContext())
                    .onSuccess(refreshed -> {
                        try {
                            send(ctx, 200, read.get());
                        } catch (final RuntimeException again) {
                            ctx.fail(again);
                        }
                    })
                    .onFailure(ctx::fail);
        }
    }

    private static <T> void answerLater(
            final RoutingContext ctx, final CompletionStage<T> write, final Function<T, JsonObject> answer) {
        Future.fromCompletionStage(write, ctx.vertx().getOrCreateContext())
                .onSuccess(result -> json(ctx, 200, answer.apply(result)))
                .onFailure(ctx::fail);
    }

    private static Throwable unwrap(final Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static void json(final RoutingContext ctx, final int status, final JsonObject body) {
        send(ctx, status, body.encode());
    }

    private static void json(final RoutingContext ctx, final int status, final JsonArray body) {
        send(ctx, status, body.encode());
    }

    private static void send(final RoutingContext ctx, final int status, final String body) {
        ctx.response()
                .setStatusCode(status)
                .putHeader("Content-Type", CONTENT_TYPE)
                .end(body);
    }

    private static void error(final RoutingContext ctx, final int status, final int errorCode, final String message) {
        json(ctx, status, new JsonObject().put("error_code", errorCode).put("message", message));
    }
}
