/**
 * Who may do what: the admin password for search (HTTP Basic), HEC tokens for ingestion, and the
 * secrets generated into the data directory on first start when none are configured.
 */
package io.quarry.server.auth;
