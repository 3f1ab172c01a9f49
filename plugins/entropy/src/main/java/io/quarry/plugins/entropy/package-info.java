/** The {@code entropy} plugin: Shannon entropy of field values, a streaming command. */
package io.quarry.plugins.entropy;
