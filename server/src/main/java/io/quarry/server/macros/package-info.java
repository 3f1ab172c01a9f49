/**
 * Search macros the server knows: those of the configuration ({@code search.macros}) and those
 * defined through {@code /api/v1/macros}, kept in {@code <dataDir>/macros.json}; the search
 * service's parser expands them (query-language's {@code Macros}).
 */
package io.quarry.server.macros;
