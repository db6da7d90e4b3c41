/** The in-memory content backend. */
package io.sluice.document.content.memory;
