/**
 * The Java client SDK: run searches through the export endpoint and send events through HEC, over
 * {@link java.net.http.HttpClient} — except a file's region sent to HEC {@code /raw} over plain
 * HTTP, which goes by {@code sendfile} on the SDK's own HTTP/1.1 connections ({@code
 * FileRegionPoster}). This first cut covers what the CLI needs; typed columnar results, async jobs
 * and streaming arrive with the API issue.
 */
package io.quarry.client;
