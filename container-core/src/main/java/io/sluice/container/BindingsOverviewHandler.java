package io.sluice.container;

import com.fasterxml.jackson.core.JsonGenerator;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.util.List;

/** {@code GET /}: every mounted handler with its id, class, bundle and bindings, as Vespa's BindingsOverviewHandler. */
public class BindingsOverviewHandler extends ReadOnlyHandler {

    private final HandlerRegistry registry;

    public BindingsOverviewHandler(HandlerRegistry registry) {
        this.registry = registry;
    }

    @Override
    protected boolean get(Request request, Response response, Callback callback) {
        List<HandlerRegistration> registrations = registry.registrations();
        JsonResponses.send(response, callback, HttpStatus.OK_200, Json.write(json -> {
            json.writeStartObject();
            json.writeFieldName("handlers");
            writeHandlers(json, registrations, false);
            json.writeEndObject();
        }));
        return true;
    }

    /** Writes the handler array; with {@code clientBindings} as {@code /ApplicationStatus} has them. */
    static void writeHandlers(JsonGenerator json, List<HandlerRegistration> registrations, boolean clientBindings)
            throws IOException {
        json.writeStartArray();
        for (HandlerRegistration registration : registrations) {
            json.writeStartObject();
            json.writeStringField("id", registration.id());
            json.writeStringField("class", registration.className());
            json.writeStringField("bundle", registration.bundle());
            json.writeArrayFieldStart("serverBindings");
            for (BindingPattern binding : registration.bindings())
                json.writeString(binding.pattern());
            json.writeEndArray();
            if (clientBindings) {
                json.writeArrayFieldStart("clientBindings");
                json.writeEndArray();
            }
            json.writeEndObject();
        }
        json.writeEndArray();
    }

}
