/**
 * The demo: sample data bundled as resources (a generated access log and Loghub system logs),
 * loaded once into a fresh data directory, and the example queries the demo prints with their
 * answers.
 */
package io.quarry.server.demo;
