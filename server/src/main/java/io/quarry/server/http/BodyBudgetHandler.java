package io.quarry.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.time.Duration;

/**
 * Counts a request body against the server-wide in-flight budget ({@link
 * HttpHandler.InFlightBytes}) as its bytes arrive, after decompression and before they are gathered
 * into one request: once the budget is spent, a request still uploading is answered with 503 and
 * Retry-After, and the rest of its body is discarded as it comes — unless the body passes {@code
 * server.maxRequestBytes}: that is a size refusal (413, by the aggregator) whatever the budget, a
 * retry would fail again. So many slow or stalled uploads (authenticated or not), or a gzip bomb,
 * cannot together fill the heap while they wait to be complete. When the last chunk arrives the
 * reservation is handed back just before the complete request reaches {@link HttpHandler}, which
 * reserves the whole body until it is served. A request with a body and no credentials at all (no
 * {@code Authorization} header; only a login sends its credentials in the body) is answered 401
 * before a byte of its body is read, unless a verified client certificate stands for a user ({@link
 * ClientCertificates}); a request whose route group needs a client certificate and comes without
 * one is answered 403 alike.
 */
final class BodyBudgetHandler extends ChannelInboundHandlerAdapter {
  private final HttpHandler.InFlightBytes inFlight;
  private final Router router;
  private final long maxRequestBytes;
  private long reserved; // bytes of the body being received; event-loop state
  private boolean refused; // the body being received was refused: drop the rest of it
  private boolean oversized; // the body being received passed maxRequestBytes: the aggregator's
  private String path = "/";
  private final ClientCertificates certificates;

  BodyBudgetHandler(
      HttpHandler.InFlightBytes inFlight,
      Router router,
      long maxRequestBytes,
      ClientCertificates certificates) {
    this.certificates = certificates;
    this.inFlight = inFlight;
    this.router = router;
    this.maxRequestBytes = maxRequestBytes;
  }

  @Override
  public void channelRead(ChannelHandlerContext context, Object message) {
    if (message instanceof HttpRequest request) {
      releaseReserved();
      refused = false;
      oversized = false;
      String uri = request.uri();
      int query = uri.indexOf('?');
      path = query < 0 ? uri : uri.substring(0, query);
      if (request.decoderResult().isSuccess()
          && !serving(context)
          && certificates.refuses(path, context.channel())) {
        // its route group needs a client certificate: refused before its body is read
        refused = true;
        ReferenceCountUtil.release(message);
        Exchange.sendAndDrain(context, ClientCertificates.required(path), Duration.ofSeconds(10));
        return;
      }
      if (request.decoderResult().isSuccess()
          && !serving(context)
          && hasBody(request)
          && !request.headers().contains(HttpHeaderNames.AUTHORIZATION)
          && certificates.user(context.channel()).isEmpty()
          && !Router.takesBodyWithoutCredentials(path)) {
        // no credentials at all: refused before a byte of the body is read or counted
        refused = true;
        ReferenceCountUtil.release(message);
        Exchange.sendAndDrain(context, router.missingCredentials(path), Duration.ofSeconds(10));
        return;
      }
    }
    if (!(message instanceof HttpContent content)) {
      context.fireChannelRead(message);
      return;
    }
    if (refused) {
      ReferenceCountUtil.release(content);
      return;
    }
    int bytes = content.content().readableBytes();
    if (oversized || reserved + bytes > maxRequestBytes) {
      // past the request limit the aggregator answers 413 and discards the rest: nothing is held.
      // The chunk that crosses the limit is not counted either: counted, it could pass the budget
      // first when the budget is no larger than the limit (the default on a heap of 1 GiB or
      // less), and a body too large for any budget was answered 503, "retry", instead of 413
      oversized = true;
      if (content instanceof LastHttpContent) {
        releaseReserved();
      }
      context.fireChannelRead(content);
      return;
    }
    if (bytes > 0 && !inFlight.tryAcquire(bytes)) {
      refused = true;
      releaseReserved();
      ReferenceCountUtil.release(content);
      if (serving(context)) {
        // an answer to an earlier request is on its way: a 503 now would cut into it
        context.close();
      } else {
        // the aggregator's partial body goes now, not after the linger
        context.pipeline().remove("aggregator");
        Exchange.sendAndDrain(context, router.busy(path), Duration.ofSeconds(10));
      }
      return;
    }
    reserved += bytes;
    if (content instanceof LastHttpContent) {
      releaseReserved(); // the complete request takes the bytes over in HttpHandler
    }
    context.fireChannelRead(content);
  }

  private static boolean hasBody(HttpRequest request) {
    if (HttpUtil.isTransferEncodingChunked(request)) {
      return true;
    }
    String length = request.headers().get(HttpHeaderNames.CONTENT_LENGTH);
    // a malformed length is the aggregator's and HttpHandler's to answer (400), not a body here
    return length != null && !length.isBlank() && !length.strip().equals("0");
  }

  /** Whether an earlier request of this connection is being answered. */
  private static boolean serving(ChannelHandlerContext context) {
    HttpHandler handler = context.pipeline().get(HttpHandler.class);
    return handler != null && handler.serving();
  }

  @Override
  public void channelInactive(ChannelHandlerContext context) throws Exception {
    releaseReserved();
    super.channelInactive(context);
  }

  private void releaseReserved() {
    if (reserved > 0) {
      inFlight.release(reserved);
      reserved = 0;
    }
  }
}
