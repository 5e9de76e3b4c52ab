package io.paramhub.registry;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.KeyStoreOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;

/** The registry's HTTP verticle: Confluent's REST routes over a {@link SchemaStore}; deployed once it listens. */
final class RegistryVerticle extends VerticleBase {

    private static final long MAX_BODY_BYTES = 16L * 1024 * 1024;

    private final SchemaStore store;
    private final String host;
    private final int port;
    private final RegistryAccess access;
    private volatile HttpServer server;

    RegistryVerticle(final SchemaStore store, final String host, final int port, final RegistryAccess access) {
        this.store = store;
        this.host = host;
        this.port = port;
        this.access = access;
    }

    @Override
    public Future<?> start() {
        final HttpServerOptions options = new HttpServerOptions();
        if (access.tls()) {
            options.setSsl(true)
                    .setKeyCertOptions(new KeyStoreOptions()
                            .setType("PKCS12")
                            .setPath(access.keyStore().toString())
                            .setPassword(access.keyStorePassword()));
        }
        return vertx.createHttpServer(options)
                .requestHandler(router())
                .listen(port, host)
                .onSuccess(listening -> server = listening);
    }

    /** The port the server listens on; valid once deployed. */
    int actualPort() {
        return server.actualPort();
    }

    private Router router() {
        final RegistryHandlers handlers = new RegistryHandlers(store);
        final Router router = Router.router(vertx);
        if (access.authenticates()) {
            router.route().order(-1).handler(new BasicAuthentication(access.users()));
        }
        router.route().method(HttpMethod.POST).method(HttpMethod.PUT).handler(handlers::checkContentType);
        router.route().handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES));
        router.get("/").handler(handlers::root);
        router.get("/subjects").handler(handlers::listSubjects);
        router.post("/subjects/:subject/versions").handler(handlers::register);
        router.get("/subjects/:subject/versions").handler(handlers::listVersions);
        router.get("/subjects/:subject/versions/:version").handler(handlers::getVersion);
        router.post("/subjects/:subject").handler(handlers::lookup);
        router.get("/schemas/ids/:id").handler(handlers::schemaById);
        router.get("/config").handler(handlers::globalConfig);
        router.put("/config").handler(handlers::putGlobalConfig);
        router.get("/config/:subject").handler(handlers::subjectConfig);
        router.put("/config/:subject").handler(handlers::putSubjectConfig);
        router.post("/compatibility/subjects/:subject/versions/:version").handler(handlers::compatibility);
        router.route().last().handler(handlers::notFound);
        router.route().failureHandler(handlers::failure);
        return router;
    }
}
