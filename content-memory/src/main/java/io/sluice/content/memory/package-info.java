/** The in-memory content backend. */
package io.sluice.content.memory;
