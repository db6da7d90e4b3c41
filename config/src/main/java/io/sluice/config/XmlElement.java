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
 * @param line       the line of the element's start tag (1-based)
 * @param attributes attribute values by qualified name, in document order
 * @param children   child elements, in document order
 * @param text       the element's own character data (not its children's), untrimmed
 */
record XmlElement(String name, int line, Map<String, String> attributes, List<XmlElement> children, String text) {

    XmlElement {
        Objects.requireNonNull(name, "name");
        attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes)); // keeps document order
        children = List.copyOf(children);
        Objects.requireNonNull(text, "text");
    }

    Optional<String> attribute(String name) {
        return Optional.ofNullable(attributes.get(name));
    }

    /** {@code <name>}, or {@code <name id='x'>} when the element has an id, as used in messages. */
    String describe() {
        String id = attributes.get("id");
        if (id == null) id = attributes.get("type");
        if (id == null) return "<" + name + ">";
        return "<" + name + (attributes.containsKey("id") ? " id='" : " type='") + id + "'>";
    }

}
