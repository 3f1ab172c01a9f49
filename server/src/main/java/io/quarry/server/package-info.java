/**
 * The Quarry node: {@link io.quarry.server.QuarryServer} wires configuration, the event store, the
 * ingest and search services and the HTTP routes together, and owns their lifecycle; {@code
 * NodeStores} opens the stores of its data directory, {@code NodeRoutes} registers every HTTP route
 * over its services, {@code StartCredentials} resolves its admin password and HEC tokens, {@code
 * FailedStart} closes what a failed start opened.
 */
package io.quarry.server;
