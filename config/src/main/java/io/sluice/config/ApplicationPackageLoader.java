package io.sluice.config;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads an application package directory into an {@link ApplicationPackage}.
 *
 * <p>Everything in services.xml is either applied, or reported in {@link ApplicationPackage#warnings()} with its file
 * and line: unknown elements and attributes, Vespa features Sluice lacks, and settings that have no effect here.
 * Invalid values fail the whole load. Relative file names (TLS files, access log, data directory) are resolved against
 * the package directory.
 */
public final class ApplicationPackageLoader {

    static final String SERVICES = "services.xml";
    static final String SCHEMAS = "schemas";
    static final String SCHEMA_SUFFIX = ".sd";

    private static final Set<String> UNSUPPORTED = Set.of("routing", "config", "jdisc", "legacy", "include");

    private ApplicationPackageLoader() { }

    /**
     * Loads {@code services.xml} and lists {@code schemas/*.sd} under {@code directory}.
     *
     * @throws ConfigException if the package is missing, malformed, or has invalid values; the message names the file,
     *                         line, element and bad value
     */
    public static ApplicationPackage load(Path directory) {
        return load(directory, false);
    }

    /**
     * As {@link #load(Path)}, but for testing an application against Sluice: parts refused only because Sluice would
     * store other documents than Vespa ({@code <documentprocessor>}s) are left out and listed in
     * {@link ApplicationPackage#skipped()}. Access control and TLS are refused as always.
     *
     * @throws ConfigException as {@link #load(Path)} for everything else
     */
    public static ApplicationPackage loadSkippingUnsupported(Path directory) {
        return load(directory, true);
    }

    private static ApplicationPackage load(Path directory, boolean skipUnsupported) {
        Path root = directory.toAbsolutePath().normalize();
        if ( ! Files.isDirectory(root))
            throw new ConfigException("Application package " + root + " is not a directory");
        Path services = root.resolve(SERVICES);
        if ( ! Files.isRegularFile(services))
            throw new ConfigException("Application package " + root + " has no " + SERVICES + " (looked for " + services + ")");

        List<String> warnings = new ArrayList<>();
        if (Files.isDirectory(root.resolve("searchdefinitions")))
            warnings.add("searchdefinitions/: not read, Sluice reads schemas from " + SCHEMAS + "/");
        List<Path> schemaFiles = schemaFiles(root);
        Set<String> schemaNames = schemaFiles.stream().map(ApplicationPackageLoader::schemaName).collect(Collectors.toSet());

        Diagnostics diagnostics = new Diagnostics(SERVICES, skipUnsupported);
        XmlElement selected = DeployVariants.select(XmlReader.read(services, SERVICES), diagnostics);
        Services model = services(selected, diagnostics, root, schemaNames);
        warnings.addAll(diagnostics.warnings());
        return new ApplicationPackage(root, model, schemaFiles, warnings, diagnostics.skipped());
    }

    /** Fails unless {@code element} has no {@code version} or version 1.0, the only one Vespa defines. */
    static void checkVersion(XmlElement element, Diagnostics diagnostics) {
        element.attribute("version").map(String::trim).ifPresent(version -> {
            if ( ! version.equals("1.0"))
                throw diagnostics.error(element, element.describe() + " version: '" + version + "' is not 1.0");
        });
    }

    private static Services services(XmlElement root, Diagnostics diagnostics, Path directory, Set<String> schemas) {
        if ( ! root.name().equals("services"))
            throw diagnostics.error(root, "the root element must be <services>, not <" + root.name() + ">");
        diagnostics.checkAttributes(root, Set.of("version"), Set.of("minimum-required-vespa-version", "application-type"));
        checkVersion(root, diagnostics);
        List<ContainerCluster> containers = new ArrayList<>();
        List<XmlElement> containerElements = new ArrayList<>();
        List<ContentCluster> contents = new ArrayList<>();
        for (XmlElement child : root.children()) {
            switch (child.name()) {
                case "container":
                    containers.add(new ContainerReader(diagnostics, directory).read(child));
                    containerElements.add(child);
                    break;
                case "content":
                    contents.add(new ContentReader(diagnostics, directory, schemas).read(child));
                    break;
                case "admin":
                    diagnostics.noEffect(child, root, "there are no admin services");
                    break;
                default:
                    if (UNSUPPORTED.contains(child.name())) diagnostics.unsupported(child, root);
                    else diagnostics.unknown(child, root);
            }
        }
        Services services = diagnostics.construct(root, () -> new Services(containers, contents));
        ContainerCluster served = services.served();
        for (int i = 0; i < containers.size(); i++)
            if (containers.get(i) != served)
                diagnostics.warn(containerElements.get(i), containerElements.get(i).describe() + " is not run: Sluice runs "
                                                           + "one container, <container id='" + served.id() + "'>"
                                                           + (served.documentApi().isPresent() ? ", the one with <document-api>" : ", the first"));
        return services;
    }

    private static List<Path> schemaFiles(Path root) {
        Path directory = root.resolve(SCHEMAS);
        if ( ! Files.isDirectory(directory)) return List.of();
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, "*" + SCHEMA_SUFFIX)) {
            for (Path file : stream)
                if (Files.isRegularFile(file)) files.add(file);
        }
        catch (IOException e) {
            throw new ConfigException("Cannot list " + directory + ": " + e, e);
        }
        files.sort(Comparator.comparing(file -> file.getFileName().toString()));
        return files;
    }

    private static String schemaName(Path schemaFile) {
        String name = schemaFile.getFileName().toString();
        return name.substring(0, name.length() - SCHEMA_SUFFIX.length());
    }

}
