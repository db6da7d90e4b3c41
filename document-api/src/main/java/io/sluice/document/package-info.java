/**
 * Document types, field values and documents. Types form the sealed {@link io.sluice.document.DataType} hierarchy;
 * values ({@link io.sluice.document.FieldValue}) and {@link io.sluice.document.Document}s are immutable, with cheap
 * {@code with...} copies for applying updates. {@link io.sluice.document.DocumentTypes} is the registry of an
 * application's types and {@link io.sluice.document.FieldSet} selects the fields to return.
 */
package io.sluice.document;
