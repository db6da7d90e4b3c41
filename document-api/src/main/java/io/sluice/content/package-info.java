/**
 * The content-backend SPI: what every document store implements ({@link io.sluice.content.ContentBackend})
 * and the values that cross it. Single-document operations answer with {@link io.sluice.content.Outcome}
 * values; visits are pulled batch by batch ({@link io.sluice.content.Visit}) and resume from opaque
 * {@link io.sluice.content.ProgressToken}s. {@link io.sluice.content.VisitPlan} and
 * {@link io.sluice.content.DocumentKey} give every backend the same bucket order, slicing and progress.
 */
package io.sluice.content;
