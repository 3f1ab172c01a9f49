package io.quarry.server.rest;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.http.ApiException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A search that fails after its streamed answer has begun (headers and some rows sent) can no
 * longer answer with an error status, so each format ends the answer in a way a client cannot take
 * for a complete result:
 *
 * <ul>
 *   <li>JSON ({@code /api/v1/search}): the document is closed with an {@code "error"} member,
 *       {@code {"pages":[…],"messages":[],"error":{"code","message",…}}}, and the chunked body
 *       ends;
 *   <li>NDJSON: a last line {@code {"error":{"code","message",…}}} — never a row, whose values are
 *       scalars or arrays — and the chunked body ends;
 *   <li>Splunk's export (JSON lines): the held row without {@code lastrow}, then {@code
 *       {"preview":false,"messages":[{"type":"FATAL","text":…}],"error":{…}}}, and the body ends;
 *   <li>CSV and Arrow, which have no room for an error: the connection is closed without the
 *       terminal chunk, so an HTTP client reports a truncated body (an {@link java.io.IOException}
 *       in Java) instead of a short result that looks whole.
 * </ul>
 *
 * <p>A search that fails before anything is written answers with its error status as any request
 * does: both streaming routes open their response with the first bytes they write.
 */
final class StreamFailure {
  private static final Logger LOG = Logger.getLogger(StreamFailure.class.getName());

  private StreamFailure() {}

  /**
   * The typed error a failure is reported as: an {@link ApiException} as it is (the search service
   * has made memory limits and plugin failures into theirs), anything else a logged 500 {@code
   * INTERNAL}, as the HTTP handler answers it before a response begins.
   */
  static ApiException typed(String path, RuntimeException failure) {
    if (failure instanceof ApiException error) {
      LOG.log(Level.FINE, "search for " + path + " failed after its answer began", failure);
      return error;
    }
    LOG.log(Level.WARNING, "search for " + path + " failed after its answer began", failure);
    return new ApiException(
        HttpResponseStatus.INTERNAL_SERVER_ERROR, "INTERNAL", "Internal error: " + failure);
  }
}
