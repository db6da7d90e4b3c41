package io.sluice.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Warnings and errors about one file, each prefixed with {@code file:line:}. Readers report every element or attribute
 * they pass over here, so nothing in services.xml is ignored silently.
 */
final class Diagnostics {

    private final String file;
    private final boolean skipUnsupported;
    private final List<String> warnings = new ArrayList<>();
    private final List<String> skipped = new ArrayList<>();

    Diagnostics(String file) {
        this(file, false);
    }

    /** With {@code skipUnsupported}, {@link #refusedUnlessSkipped} records instead of refusing. */
    Diagnostics(String file, boolean skipUnsupported) {
        this.file = file;
        this.skipUnsupported = skipUnsupported;
    }

    boolean skipsUnsupported() {
        return skipUnsupported;
    }

    List<String> skipped() {
        return List.copyOf(skipped);
    }

    /**
     * A part Sluice refuses only because it would store other documents than Vespa: refused as {@link #refused}, or,
     * when the load skips unsupported parts, recorded as skipped ({@code file:line: what: why}) and left out.
     *
     * @throws ConfigException unless unsupported parts are skipped
     */
    void refusedUnlessSkipped(XmlElement at, String what, String why) {
        if ( ! skipUnsupported)
            throw refused(at, what, why);
        skipped.add(location(at) + ": " + what + " skipped: " + why);
    }

    List<String> warnings() {
        return List.copyOf(warnings);
    }

    void warn(XmlElement at, String message) {
        warnings.add(location(at) + ": " + message);
    }

    /** {@code file:line} of an element. */
    String location(XmlElement at) {
        return file + ":" + at.line();
    }

    ConfigException error(XmlElement at, String message) {
        return new ConfigException(file + ":" + at.line() + ": " + message);
    }

    /** An element Sluice does not know at all. */
    void unknown(XmlElement element, XmlElement parent) {
        warn(element, "unknown element <" + element.name() + "> in <" + parent.name() + ">, ignored");
    }

    /** A Vespa element for a feature Sluice does not have, named with its id so that a component can be told apart. */
    void unsupported(XmlElement element, XmlElement parent) {
        warn(element, "unsupported element " + element.describe() + " in <" + parent.name() + ">, ignored");
    }

    /**
     * A Vespa element or attribute Sluice does not implement and cannot ignore, because without it the server would
     * store other data or let other clients in than the application asks for: start-up fails, naming it and why.
     */
    ConfigException refused(XmlElement at, String what, String why) {
        return error(at, what + " is not supported by Sluice: " + why);
    }

    /** A Vespa element Sluice accepts, but which changes nothing here. */
    void noEffect(XmlElement element, XmlElement parent, String why) {
        warn(element, "<" + element.name() + "> in <" + parent.name() + "> has no effect in Sluice (" + why + "), ignored");
    }

    /** Warns about each attribute of {@code element} that is neither {@code known} nor {@code noEffect}. */
    void checkAttributes(XmlElement element, Set<String> known, Set<String> noEffect) {
        for (String name : element.attributes().keySet()) {
            if (noEffect.contains(name))
                warn(element, "attribute '" + name + "' of " + element.describe() + " has no effect in Sluice, ignored");
            else if ( ! known.contains(name))
                warn(element, "unknown attribute '" + name + "' of " + element.describe() + ", ignored");
        }
    }

    /** Adds {@code element}'s name to {@code seen}, or fails if it was there: the element may appear once. */
    void once(XmlElement element, XmlElement parent, Set<String> seen) {
        if ( ! seen.add(element.name()))
            throw error(element, "<" + element.name() + "> appears more than once in " + parent.describe());
    }

    /** Runs a record constructor, adding this element's location to the {@link ConfigException} it throws. */
    <T> T construct(XmlElement at, Supplier<T> constructor) {
        try {
            return constructor.get();
        }
        catch (ConfigException e) {
            String message = e.getMessage();
            throw error(at, message.contains(at.describe()) ? message : at.describe() + ": " + message);
        }
    }

    String requiredAttribute(XmlElement element, String name) {
        String value = element.attribute(name).map(String::trim).orElse("");
        if (value.isEmpty())
            throw error(element, "<" + element.name() + "> needs a non-empty '" + name + "' attribute");
        return value;
    }

    /** The trimmed value of an optional attribute which, when present, must not be blank. */
    Optional<String> nonEmptyAttribute(XmlElement element, String name) {
        return element.attribute(name).map(String::trim).map(value -> {
            if (value.isEmpty())
                throw error(element, "<" + element.name() + "> '" + name + "' must not be empty");
            return value;
        });
    }

    <T> Optional<T> attribute(XmlElement element, String name, ValueType<T> type) {
        return element.attribute(name).map(value -> type.parse(value).orElseThrow(
                () -> error(element, element.describe() + " " + name + ": '" + value + "' is not " + type.description())));
    }

    /** The element's trimmed text; it must have some, and no child elements. */
    String text(XmlElement element) {
        String text = optionalText(element);
        if (text.isEmpty())
            throw error(element, "<" + element.name() + "> must not be empty");
        return text;
    }

    /** The element's trimmed text, possibly empty; it must have no child elements. */
    String optionalText(XmlElement element) {
        if ( ! element.children().isEmpty())
            throw error(element.children().get(0), "<" + element.name() + "> must contain text only, not <"
                                                   + element.children().get(0).name() + ">");
        return element.text().trim();
    }

    <T> T text(XmlElement element, ValueType<T> type) {
        String text = text(element);
        return type.parse(text).orElseThrow(
                () -> error(element, "<" + element.name() + ">: '" + text + "' is not " + type.description()));
    }

}
