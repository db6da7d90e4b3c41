package io.sluice.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One element of a parsed XML file, with the line it starts on, so that every warning and error can point at it.
 *
 * @param name       the qualified element name, {@code prefix:local} when it has a prefix
 * @param line       the line on which the element's start tag ends (1-based; StAX reports positions after a tag)
 * @param attributes attribute values by qualified name, in document order
 * @param children   child elements, in document order
 * @param text       the element's own character data (not its children's), untrimmed
 */
record XmlElement(String name, int line, Map<String, String> attributes, List<XmlElement> children, String text) {

    private static final List<String> IDENTIFYING = List.of("id", "type", "name");

    XmlElement {
        Objects.requireNonNull(name, "name");
        attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes)); // keeps document order
        children = List.copyOf(children);
        Objects.requireNonNull(text, "text");
    }

    Optional<String> attribute(String name) {
        return Optional.ofNullable(attributes.get(name));
    }

    /**
     * How messages name this element: {@code <name>}, with the first identifying attribute it has of {@code id},
     * {@code type} and {@code name}, e.g. {@code <server id='plain'>} or {@code <document type='music'>}.
     */
    String describe() {
        for (String key : IDENTIFYING)
            if (attributes.containsKey(key))
                return "<" + name + " " + key + "='" + attributes.get(key) + "'>";
        return "<" + name + ">";
    }

}
