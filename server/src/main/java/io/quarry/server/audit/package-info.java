/**
 * The audit trail: who logged in (or failed to, or was locked out), who logged out, who searched
 * what and how it went, and who changed the configuration (lookups, macros), recorded as events in
 * the admin-only {@code _audit} index, as Splunk records them in its {@code _audit} index.
 */
package io.quarry.server.audit;
