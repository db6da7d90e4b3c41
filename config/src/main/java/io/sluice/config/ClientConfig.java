package io.sluice.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One {@code <clients><client>} of a container: who it is (client certificates, tokens) and what it may do.
 *
 * @param id               the client's id
 * @param permissions      {@code read} (GET) and/or {@code write} (POST, PUT, DELETE)
 * @param certificateFiles PEM files of {@code <certificate file>}: a TLS client presenting one of these certificates,
 *                         or one they issued, is this client
 * @param tokenIds         ids of {@code <token id>}: a request with {@code Authorization: Bearer <the token's value>}
 *                         is this client (the values come from the environment, see config/README.md)
 */
public record ClientConfig(String id, Set<Permission> permissions, List<Path> certificateFiles, List<String> tokenIds) {

    public enum Permission { READ, WRITE }

    public ClientConfig {
        Objects.requireNonNull(id, "id");
        permissions = Set.copyOf(permissions);
        certificateFiles = List.copyOf(certificateFiles);
        tokenIds = List.copyOf(tokenIds);
        if (permissions.isEmpty())
            throw new ConfigException("<client id='" + id + "'> has no permissions");
        if (certificateFiles.isEmpty() && tokenIds.isEmpty())
            throw new ConfigException("<client id='" + id + "'> has neither a <certificate> nor a <token>");
    }

}
