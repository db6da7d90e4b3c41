package io.sluice.config;

import javax.xml.XMLConstants;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an XML file into an {@link XmlElement} tree with line numbers, using the JDK's StAX parser.
 * DTDs and external entities are refused: an application package is untrusted input, and services.xml needs neither.
 */
final class XmlReader {

    private XmlReader() { }

    /**
     * @param file  the file to read
     * @param label how messages name the file, e.g. {@code services.xml}
     * @throws ConfigException if the file cannot be read, is not well-formed, or has a DTD
     */
    static XmlElement read(Path file, String label) {
        try (InputStream in = Files.newInputStream(file)) {
            XMLStreamReader reader = factory().createXMLStreamReader(in);
            try {
                return root(reader, label);
            }
            finally {
                reader.close();
            }
        }
        catch (XMLStreamException e) {
            throw new ConfigException(label + lineOf(e.getLocation()) + ": malformed XML: " + messageOf(e), e);
        }
        catch (IOException e) {
            throw new ConfigException("Cannot read " + file + ": " + e, e);
        }
    }

    private static XMLInputFactory factory() {
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        return factory;
    }

    private static XmlElement root(XMLStreamReader reader, String label) throws XMLStreamException {
        Deque<Builder> open = new ArrayDeque<>();
        XmlElement root = null;
        while (reader.hasNext()) {
            int event = reader.next();
            switch (event) {
                case XMLStreamConstants.DTD:
                    throw new ConfigException(label + lineOf(reader.getLocation()) + ": DOCTYPE declarations are not allowed");
                case XMLStreamConstants.START_ELEMENT:
                    open.push(new Builder(qualifiedName(reader.getPrefix(), reader.getLocalName()),
                                          reader.getLocation().getLineNumber(), attributes(reader)));
                    break;
                case XMLStreamConstants.CHARACTERS:
                case XMLStreamConstants.CDATA:
                case XMLStreamConstants.SPACE:
                    if ( ! open.isEmpty()) open.peek().text.append(reader.getText());
                    break;
                case XMLStreamConstants.END_ELEMENT:
                    XmlElement done = open.pop().build();
                    if (open.isEmpty()) root = done;
                    else open.peek().children.add(done);
                    break;
                default: // comments, processing instructions, document start and end
            }
        }
        if (root == null)
            throw new ConfigException(label + ": no root element");
        return root;
    }

    private static Map<String, String> attributes(XMLStreamReader reader) {
        Map<String, String> attributes = new LinkedHashMap<>();
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            // Named as Vespa's documentation writes them, whatever prefix the file binds to the namespace.
            String name = DeployVariants.NAMESPACE.equals(reader.getAttributeNamespace(i))
                    ? DeployVariants.PREFIX + reader.getAttributeLocalName(i)
                    : qualifiedName(reader.getAttributePrefix(i), reader.getAttributeLocalName(i));
            attributes.put(name, reader.getAttributeValue(i));
        }
        return attributes;
    }

    private static String qualifiedName(String prefix, String local) {
        return prefix == null || prefix.isEmpty() ? local : prefix + ":" + local;
    }

    private static String lineOf(Location location) {
        return location == null || location.getLineNumber() < 0 ? "" : ":" + location.getLineNumber();
    }

    /** The JDK's message repeats the location before the interesting part: keep only the latter. */
    private static String messageOf(XMLStreamException e) {
        String message = String.valueOf(e.getMessage());
        int index = message.indexOf("Message: ");
        return index < 0 ? message : message.substring(index + "Message: ".length());
    }

    private static final class Builder {

        private final String name;
        private final int line;
        private final Map<String, String> attributes;
        private final List<XmlElement> children = new ArrayList<>();
        private final StringBuilder text = new StringBuilder();

        Builder(String name, int line, Map<String, String> attributes) {
            this.name = name;
            this.line = line;
            this.attributes = attributes;
        }

        XmlElement build() {
            return new XmlElement(name, line, attributes, children, text.toString());
        }

    }

}
