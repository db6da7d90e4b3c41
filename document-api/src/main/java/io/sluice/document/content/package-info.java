/**
 * The content-backend SPI: what every document store implements ({@link io.sluice.document.content.ContentBackend})
 * and the values that cross it. Single-document operations answer with {@link io.sluice.document.content.Outcome}
 * values; visits are pulled batch by batch ({@link io.sluice.document.content.Visit}) and resume from opaque
 * {@link io.sluice.document.content.ProgressToken}s. {@link io.sluice.document.content.VisitPlan} and
 * {@link io.sluice.document.content.DocumentKey} give every backend the same bucket order, slicing and progress.
 */
package io.sluice.document.content;
