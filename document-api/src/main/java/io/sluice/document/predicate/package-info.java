/**
 * Values of {@code predicate} fields: {@link io.sluice.document.predicate.Predicate#parse} reads Vespa's predicate
 * syntax and {@code toString()} writes Vespa's canonical form.
 */
package io.sluice.document.predicate;
