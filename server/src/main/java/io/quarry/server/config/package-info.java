/**
 * Configuration: one YAML file ({@code conf/quarry.yml}), overridden by {@code QUARRY_*}
 * environment variables, overridden by command-line flags; loaded into immutable records with every
 * default in one place.
 */
package io.quarry.server.config;
