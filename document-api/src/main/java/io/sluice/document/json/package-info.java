/**
 * Vespa's document JSON format on jackson-core's streaming API: {@link io.sluice.document.json.DocumentJsonReader}
 * for put bodies, {@link io.sluice.document.json.DocumentJsonWriter} for the put format of responses, and
 * {@link io.sluice.document.json.JsonValueReader} for reading single values (for update readers).
 */
package io.sluice.document.json;
