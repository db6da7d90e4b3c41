/** Reads the document parts of Vespa schema ({@code .sd}) files: {@link io.sluice.document.schema.SchemaParser}. */
package io.sluice.document.schema;
