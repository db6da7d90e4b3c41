package io.sluice.container.faults;

import io.sluice.container.Json;
import io.sluice.container.JsonResponses;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.Invocable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

/**
 * {@value #PATH}: the faults in force, to read and change while the server runs. Mounted only when the server was
 * started with faults enabled, under a path Vespa does not use.
 * <ul>
 *   <li>{@code GET}: {@code {"spec", "seed", "faults": [...], "requests", "injected": {"429": n, ...}}}</li>
 *   <li>{@code PUT} with {@code {"faults": [...], "seed": n}} ({@link FaultSpec#parseJson}): replaces the faults, and
 *       with a seed starts the draws over; answers as GET. A bad body is a 400 naming what is wrong, and changes
 *       nothing.</li>
 *   <li>{@code DELETE}: no faults from now on; answers as GET.</li>
 * </ul>
 */
public final class FaultsHandler extends Handler.Abstract.NonBlocking {

    public static final String PATH = "/sluice/v1/faults";

    /** The largest body a PUT may have. */
    static final int MAX_BODY_BYTES = 64 << 10;

    private final Faults faults;

    public FaultsHandler(Faults faults) {
        this.faults = Objects.requireNonNull(faults, "faults");
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        switch (request.getMethod()) {
            case "GET":
                state(response, callback);
                return true;
            case "DELETE":
                faults.replace(FaultPlan.NONE, java.util.OptionalLong.empty());
                state(response, callback);
                return true;
            case "PUT":
                Content.Source.asByteArrayAsync(request, MAX_BODY_BYTES, Promise.Invocable.from(
                        Invocable.InvocationType.NON_BLOCKING, body -> put(body, response, callback),
                        failure -> JsonResponses.error(response, callback, HttpStatus.BAD_REQUEST_400,
                                                       "Cannot read the body (at most " + MAX_BODY_BYTES + " bytes): "
                                                       + failure.getMessage())));
                return true;
            default:
                JsonResponses.methodNotAllowed(response, callback, request.getMethod(), "GET, PUT, DELETE");
                return true;
        }
    }

    private void put(byte[] body, Response response, Callback callback) {
        FaultSpec.Parsed parsed;
        try {
            parsed = FaultSpec.parseJson(new String(body, StandardCharsets.UTF_8));
        }
        catch (IllegalArgumentException e) {
            JsonResponses.error(response, callback, HttpStatus.BAD_REQUEST_400, "Bad faults: " + e.getMessage());
            return;
        }
        faults.replace(parsed.plan(), parsed.seed());
        state(response, callback);
    }

    private void state(Response response, Callback callback) {
        FaultPlan plan = faults.plan();
        byte[] body = Json.write(generator -> {
            generator.writeStartObject();
            generator.writeStringField("spec", plan.toString());
            generator.writeNumberField("seed", faults.seed());
            generator.writeArrayFieldStart("faults");
            for (FaultRule rule : plan.rules()) {
                generator.writeStartObject();
                for (Map.Entry<String, Object> field : rule.describe().entrySet())
                    write(generator, field.getKey(), field.getValue());
                generator.writeEndObject();
            }
            generator.writeEndArray();
            generator.writeNumberField("requests", faults.requests());
            generator.writeObjectFieldStart("injected");
            for (FaultRule.Kind kind : FaultRule.Kind.values())
                generator.writeNumberField(kind.specName(), faults.injected(kind));
            generator.writeEndObject();
            generator.writeEndObject();
        });
        JsonResponses.send(response, callback, HttpStatus.OK_200, body);
    }

    private static void write(com.fasterxml.jackson.core.JsonGenerator generator, String name, Object value)
            throws IOException {
        if (value instanceof Long number) generator.writeNumberField(name, number);
        else if (value instanceof Double number) generator.writeNumberField(name, number);
        else generator.writeStringField(name, String.valueOf(value));
    }

}
