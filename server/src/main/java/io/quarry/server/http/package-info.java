/**
 * The HTTP transport on Netty: one port, one named handler per concern in the channel pipeline
 * (codec, request decompression, aggregation with a size limit, the Quarry handler), a router from
 * method and path to routes, blocking work on a bounded worker pool (503 with Retry-After when it
 * is full), one request in flight per connection, chunked streaming with write backpressure, and
 * cross-site state-changing requests refused before routing ({@code CrossSiteGuard}).
 */
package io.quarry.server.http;
