/**
 * Lookup tables: CSV files uploaded through {@code /api/v1/lookups}, kept in {@code
 * <dataDir>/lookups/}, parsed once per change and read by the {@code lookup} command.
 */
package io.quarry.server.lookups;
