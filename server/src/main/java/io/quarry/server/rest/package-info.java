/**
 * The request/response endpoints other than HEC: Splunk's search export, health, Prometheus metrics
 * and server info, with the error bodies their callers expect.
 */
package io.quarry.server.rest;
