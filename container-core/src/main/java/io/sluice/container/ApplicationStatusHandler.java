package io.sluice.container;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** {@code /ApplicationStatus}: the application, handlers and servers, in the shape of Vespa's handler of that name. */
public class ApplicationStatusHandler extends ReadOnlyHandler {

    static final String SERVER_CLASS = "org.eclipse.jetty.server.ServerConnector";

    private final StatusContext context;
    private final HandlerRegistry registry;

    public ApplicationStatusHandler(StatusContext context, HandlerRegistry registry) {
        this.context = context;
        this.registry = registry;
    }

    @Override
    protected boolean get(Request request, Response response, Callback callback) {
        ApplicationInfo application = context.application();
        JsonResponses.send(response, callback, HttpStatus.OK_200, Json.write(json -> {
            json.writeStartObject();
            json.writeObjectFieldStart("application");
            json.writeObjectFieldStart("vespa");
            json.writeStringField("version", SluiceVersion.version());
            json.writeEndObject();
            json.writeObjectFieldStart("meta");
            json.writeStringField("name", application.name());
            json.writeStringField("user", System.getProperty("user.name", ""));
            json.writeStringField("path", application.path());
            json.writeNumberField("generation", application.generation());
            json.writeNumberField("timestamp", application.started().toEpochMilli());
            json.writeStringField("date", application.started().toString());
            json.writeStringField("checksum", application.checksum());
            json.writeEndObject();
            json.writeObjectFieldStart("user");
            json.writeEndObject();
            json.writeEndObject();
            json.writeArrayFieldStart("abstractComponents");
            json.writeEndArray();
            json.writeFieldName("handlers");
            BindingsOverviewHandler.writeHandlers(json, registry.registrations(), true);
            json.writeArrayFieldStart("clients");
            json.writeEndArray();
            json.writeArrayFieldStart("servers");
            for (String id : context.serverIds()) {
                json.writeStartObject();
                json.writeStringField("id", id);
                json.writeStringField("class", SERVER_CLASS);
                json.writeStringField("bundle", "jetty-server");
                json.writeArrayFieldStart("serverBindings");
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeArrayFieldStart("httpRequestFilters");
            json.writeEndArray();
            json.writeArrayFieldStart("httpResponseFilters");
            json.writeEndArray();
            json.writeObjectFieldStart("processingChains");
            json.writeEndObject();
            json.writeEndObject();
        }));
        return true;
    }

}
