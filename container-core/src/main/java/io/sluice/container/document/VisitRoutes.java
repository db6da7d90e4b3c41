package io.sluice.container.document;

/**
 * The operations on a selection of documents (routes 1–4 of spec §1.1): visiting, copying, update-where and
 * delete-where. The seam between the handler, which routes, parses the shared parameters, sets the deadline and
 * answers 504 when it passes, and the visiting implementation. Built once per handler from its
 * {@link DocumentApiContext}.
 *
 * <p>Contract for every method: called on a Jetty thread, which it must not block; it answers through
 * {@link DocumentRequest#respond}/{@link DocumentRequest#fail}, or takes the response over with
 * {@link Exchange#takeOver} to stream it, exactly once, possibly later from another thread. It may instead throw
 * {@link io.sluice.container.HttpStatusException} before answering, which the handler renders. A {@code dryRun}
 * parameter has already been rejected (400) on these routes; everything else about parameters is up to the
 * implementation. Visit starts should check {@link DocumentApiContext#admission()} so that they are refused
 * while operations wait too long (spec §7.1); {@link DocumentRequest#backendDeadline()} bounds backend work.
 */
public interface VisitRoutes {

    /** GET on routes 1–4: a page of documents, or a stream of them (spec §1.4, §6). */
    void visit(DocumentRequest request);

    /** POST on routes 1–4: copy the selected documents to {@code destinationCluster} (spec §6.7). */
    void copy(DocumentRequest request);

    /** PUT on routes 2–4: apply the body's update to every selected document (spec §6.6). */
    void updateWhere(DocumentRequest request);

    /** DELETE on routes 1–4: remove every selected document (spec §6.6). */
    void deleteWhere(DocumentRequest request);

}
