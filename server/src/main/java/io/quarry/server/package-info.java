/**
 * The Quarry node: {@link io.quarry.server.QuarryServer} wires configuration, the event store, the
 * ingest and search services and the HTTP routes together, and owns their lifecycle.
 */
package io.quarry.server;
