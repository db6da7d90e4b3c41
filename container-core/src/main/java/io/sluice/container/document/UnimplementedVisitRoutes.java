package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import org.eclipse.jetty.http.HttpStatus;

/**
 * TODO(visiting): placeholder until visiting lands; every selection operation answers 501 naming itself.
 */
final class UnimplementedVisitRoutes implements VisitRoutes {

    @Override
    public void visit(DocumentRequest request) {
        throw notImplemented("Visiting");
    }

    @Override
    public void copy(DocumentRequest request) {
        throw notImplemented("Copying");
    }

    @Override
    public void updateWhere(DocumentRequest request) {
        throw notImplemented("Update-where");
    }

    @Override
    public void deleteWhere(DocumentRequest request) {
        throw notImplemented("Delete-where");
    }

    private static HttpStatusException notImplemented(String what) {
        return new HttpStatusException(HttpStatus.NOT_IMPLEMENTED_501, what + " is not implemented yet");
    }

}
