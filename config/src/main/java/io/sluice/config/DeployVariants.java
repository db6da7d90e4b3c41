package io.sluice.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Vespa's deployment variants: elements of services.xml that carry {@code deploy:environment}, {@code deploy:region},
 * {@code deploy:instance}, {@code deploy:cloud} or {@code deploy:tags} (namespace {@code vespa}) are kept only in the
 * zones they name, and of sibling elements with one name (and id) the one naming most of this zone's properties wins
 * over the others; an element without them is the default for every zone. Sluice is deployed as self-hosted Vespa
 * is: to environment {@code prod}, region, instance and cloud {@code default}, without tags.
 *
 * <p>Sample applications use this for {@code <nodes deploy:environment="dev" count="1">} next to their production
 * sizes; without it, such a package would have two {@code <nodes>} where Sluice allows one.
 */
final class DeployVariants {

    /** The namespace URI of the deploy attributes; {@link XmlReader} names them {@code deploy:<local name>}. */
    static final String NAMESPACE = "vespa";
    static final String PREFIX = "deploy:";

    /** The zone of a self-hosted Vespa: these values, and no tags. */
    private static final Map<String, String> ZONE = Map.of("environment", "prod", "region", "default",
                                                            "instance", "default", "cloud", "default");
    private static final Set<String> PROPERTIES = Set.of("environment", "region", "instance", "cloud", "tags");
    private static final String ZONE_DESCRIPTION = "Sluice is deployed as self-hosted Vespa is, to environment 'prod' "
                                                   + "and region 'default'";

    private DeployVariants() { }

    /**
     * {@code root} with the elements for other zones, and the defaults overridden for this one, left out (each with a
     * warning naming it), and without deploy attributes.
     */
    static XmlElement select(XmlElement root, Diagnostics diagnostics) {
        return withChildren(withoutDeployAttributes(root, diagnostics), selectChildren(root, diagnostics));
    }

    private static List<XmlElement> selectChildren(XmlElement parent, Diagnostics diagnostics) {
        Map<String, List<XmlElement>> siblings = new LinkedHashMap<>();
        for (XmlElement child : parent.children())
            siblings.computeIfAbsent(variantKey(child), key -> new ArrayList<>()).add(child);
        List<XmlElement> kept = new ArrayList<>();
        for (XmlElement child : parent.children()) {
            List<XmlElement> group = siblings.get(variantKey(child));
            int specificity = specificity(child);
            int best = group.stream().mapToInt(DeployVariants::specificity).max().orElse(0);
            if (specificity < 0) {
                diagnostics.warn(child, describe(child) + " is for another zone (" + ZONE_DESCRIPTION + "), left out");
            }
            else if (specificity < best) {
                XmlElement winner = group.stream().filter(other -> specificity(other) == best).findFirst().orElseThrow();
                diagnostics.warn(child, describe(child) + " is overridden by " + describe(winner) + " on line "
                                        + winner.line() + " (" + ZONE_DESCRIPTION + "), left out");
            }
            else {
                kept.add(withChildren(withoutDeployAttributes(child, diagnostics), selectChildren(child, diagnostics)));
            }
        }
        return kept;
    }

    /** Elements are variants of each other when they have one name and one id (or none). */
    private static String variantKey(XmlElement element) {
        return element.name() + " " + element.attribute("id").orElse("");
    }

    /**
     * How many of this zone's properties the element names: 0 for an element without deploy attributes, -1 if one of
     * them names other zones only.
     */
    private static int specificity(XmlElement element) {
        int matched = 0;
        for (Map.Entry<String, String> attribute : element.attributes().entrySet()) {
            if ( ! attribute.getKey().startsWith(PREFIX)) continue;
            String property = attribute.getKey().substring(PREFIX.length());
            if ( ! PROPERTIES.contains(property)) continue; // reported by withoutDeployAttributes
            List<String> values = List.of(attribute.getValue().trim().split("\\s+"));
            if ( ! ZONE.containsKey(property) || ! values.contains(ZONE.get(property)))
                return -1;
            matched++;
        }
        return matched;
    }

    private static XmlElement withoutDeployAttributes(XmlElement element, Diagnostics diagnostics) {
        Map<String, String> attributes = new LinkedHashMap<>();
        element.attributes().forEach((name, value) -> {
            if ( ! name.startsWith(PREFIX))
                attributes.put(name, value);
            else if ( ! PROPERTIES.contains(name.substring(PREFIX.length())))
                diagnostics.warn(element, "unknown attribute '" + name + "' of " + element.describe() + ", ignored");
        });
        return new XmlElement(element.name(), element.line(), attributes, element.children(), element.text());
    }

    private static XmlElement withChildren(XmlElement element, List<XmlElement> children) {
        return new XmlElement(element.name(), element.line(), element.attributes(), children, element.text());
    }

    /** {@code <nodes deploy:environment='dev'>}: the element with its deploy attributes. */
    private static String describe(XmlElement element) {
        StringBuilder description = new StringBuilder("<").append(element.name());
        element.attribute("id").ifPresent(id -> description.append(" id='").append(id).append("'"));
        element.attributes().forEach((name, value) -> {
            if (name.startsWith(PREFIX)) description.append(' ').append(name).append("='").append(value).append("'");
        });
        return description.append('>').toString();
    }

}
