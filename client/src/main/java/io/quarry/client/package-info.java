/**
 * The Java client SDK: run searches through the export endpoint and send events through HEC, over
 * {@link java.net.http.HttpClient}. This first cut covers what the CLI needs; typed columnar
 * results, async jobs and streaming arrive with the API issue.
 */
package io.quarry.client;
