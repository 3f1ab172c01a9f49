/**
 * The request/response endpoints other than HEC: the native API ({@code /api/v1}: streamed search,
 * jobs, indexes, its OpenAPI document), Splunk's (login, server info, search jobs and export, in
 * Splunk's JSON and Atom XML shapes), health, Prometheus metrics and server info, with the error
 * bodies their callers expect.
 */
package io.quarry.server.rest;
