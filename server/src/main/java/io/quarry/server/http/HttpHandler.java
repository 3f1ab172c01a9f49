package io.quarry.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.metrics.ServerMetrics;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The application handler: hands each request to the worker pool, stops reading the connection
 * until the response is written (one request in flight per connection), turns errors into JSON
 * bodies and counts every request.
 */
final class HttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final Logger LOG = Logger.getLogger(HttpHandler.class.getName());

  private final Router router;
  private final ExecutorService workers;
  private final ServerMetrics metrics;
  private final InFlightBytes inFlight;

  HttpHandler(
      Router router, ExecutorService workers, ServerMetrics metrics, InFlightBytes inFlight) {
    this.router = router;
    this.workers = workers;
    this.metrics = metrics;
    this.inFlight = inFlight;
  }

  /**
   * The bytes of request bodies received and not yet served, over all connections, and their limit:
   * past it new requests get 503 with Retry-After at once, so a burst of large bodies cannot fill
   * the heap while they wait for a worker. One request is always let in.
   */
  static final class InFlightBytes {
    private final long limit;
    private long used; // guarded by this

    InFlightBytes(long limit) {
      this.limit = limit;
    }

    synchronized boolean tryAcquire(long bytes) {
      if (used > 0 && used + bytes > limit) {
        return false;
      }
      used += bytes;
      return true;
    }

    synchronized void release(long bytes) {
      used -= bytes;
    }
  }

  @Override
  protected void channelRead0(ChannelHandlerContext context, FullHttpRequest request) {
    context.channel().config().setAutoRead(false);
    Exchange exchange =
        new Exchange(
            context,
            request,
            () -> {
              context.channel().config().setAutoRead(true);
              context.read();
            });
    if (!request.decoderResult().isSuccess()) {
      fail(
          exchange,
          ApiException.badRequest(
              "BAD_REQUEST", "Malformed HTTP request: " + request.decoderResult().cause()));
      return;
    }
    long bytes = request.content().readableBytes();
    if (!inFlight.tryAcquire(bytes)) {
      fail(exchange, router.busy(exchange.path()));
      return;
    }
    request.retain();
    try {
      workers.execute(() -> serve(exchange, request, bytes));
    } catch (RejectedExecutionException e) {
      request.release();
      inFlight.release(bytes);
      fail(exchange, router.busy(exchange.path()));
    }
  }

  private void serve(Exchange exchange, FullHttpRequest request, long bytes) {
    try {
      router.route(exchange.method(), exchange.path()).handle(exchange);
      if (!exchange.responded()) {
        throw new IllegalStateException("route for " + exchange.path() + " sent no response");
      }
      recordRequest(exchange);
    } catch (ApiException e) {
      fail(exchange, e);
    } catch (Exception | Error e) {
      LOG.log(Level.WARNING, "request " + exchange.method() + " " + exchange.path() + " failed", e);
      fail(
          exchange,
          new ApiException(
              HttpResponseStatus.INTERNAL_SERVER_ERROR, "INTERNAL", "Internal error: " + e));
    } finally {
      request.release();
      inFlight.release(bytes);
    }
  }

  private void fail(Exchange exchange, ApiException e) {
    if (exchange.responded()) {
      LOG.log(Level.FINE, "error after the response started; closing", e);
      recordRequest(exchange);
      exchange.closeConnection();
      return;
    }
    Map<String, String> headers = new HashMap<>(e.headers());
    if (e.status().code() == 503 || e.status().code() == 429) {
      headers.putIfAbsent("Retry-After", "1");
    }
    e.respond(exchange, headers);
    recordRequest(exchange);
  }

  private void recordRequest(Exchange exchange) {
    metrics.httpRequest(router.label(exchange.path()), exchange.method().name(), exchange.status());
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
    if (cause instanceof DecoderException && context.channel().isActive()) {
      // e.g. a body declared as gzip that is not
      LOG.log(Level.FINE, "undecodable request", cause);
      metrics.httpRequest("undecodable", "UNKNOWN", 400);
      Exchange.sendAndClose(
          context,
          ApiException.badRequest(
              "BAD_REQUEST", "Cannot decode the request: " + rootMessage(cause)));
      return;
    }
    LOG.log(Level.FINE, "connection error", cause);
    context.close();
  }

  private static String rootMessage(Throwable cause) {
    Throwable root = cause;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return String.valueOf(root.getMessage());
  }
}
