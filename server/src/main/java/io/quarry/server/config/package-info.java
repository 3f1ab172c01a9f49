/**
 * Configuration: one YAML file ({@code conf/quarry.yml}), overridden by {@code QUARRY_*}
 * environment variables, overridden by command-line flags; loaded into immutable records, each
 * setting's default in its record's constructor. {@code QuarryConfig} and its sections' records
 * ({@code Server}, {@code Tls}, {@code Auth}, {@code Role}, {@code User}, {@code Hec}, {@code
 * HecToken}, {@code Ingest}, {@code Plugins}, {@code Search}, {@code MacroSettings}, {@code
 * SavedSearchSettings}, {@code Storage}, {@code IndexStorage}, a file each) hold the settings and
 * their defaults; the checks of each section live beside them in package-private classes named for
 * the section ({@code ServerSettings}, {@code TlsSettings}, {@code AuthSettings}, {@code
 * RoleSettings}, {@code SearchSettings}, {@code StorageSettings}, {@code IndexesSettings}; {@code
 * Bounds} for the shared lower bounds). {@code ConfigBuilder} is the one way to make a
 * configuration, by setting paths, for the loader, tests and embedded servers alike ({@code
 * RecordSettings}: a settings record put there as its mapping less what its construction computes).
 */
package io.quarry.server.config;
