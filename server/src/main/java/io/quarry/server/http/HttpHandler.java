package io.quarry.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.metrics.ServerMetrics;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The application handler of one connection: hands each request to the worker pool, one at a time
 * (a pipelined request waits, and reading stops, until the response before it is written), turns
 * errors into JSON bodies and counts every request.
 */
final class HttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final Logger LOG = Logger.getLogger(HttpHandler.class.getName());

  private final Router router;
  private final WorkerPools workers;
  private final ServerMetrics metrics;
  private final InFlightBytes inFlight;
  private final long writeTimeoutMillis;
  private final ClientCertificates certificates;

  HttpHandler(
      Router router,
      WorkerPools workers,
      ServerMetrics metrics,
      InFlightBytes inFlight,
      long writeTimeoutMillis,
      ClientCertificates certificates) {
    this.certificates = certificates;
    this.router = router;
    this.workers = workers;
    this.metrics = metrics;
    this.inFlight = inFlight;
    this.writeTimeoutMillis = writeTimeoutMillis;
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

  /** Whether a request of this connection is being served (event-loop state, like the next). */
  private boolean serving;

  /** Whether a request of this connection is being answered (the event loop asks). */
  boolean serving() {
    return serving;
  }

  /** Pipelined requests a connection may have waiting behind the one being served. */
  static final int MAX_WAITING = 8;

  /**
   * Pipelined requests that came while another was served, in order; reading stops while they wait
   * (requests already read still arrive). Their bodies stay counted in the in-flight budget.
   */
  private final java.util.ArrayDeque<FullHttpRequest> waiting = new java.util.ArrayDeque<>();

  @Override
  protected void channelRead0(ChannelHandlerContext context, FullHttpRequest request) {
    ConnectionGuard guard = context.pipeline().get(ConnectionGuard.class);
    if (guard != null) {
      guard.requestReceived();
    }
    if (serving) {
      // one request at a time per connection: hold the next and read no more until it is served
      context.channel().config().setAutoRead(false);
      if (waiting.size() >= MAX_WAITING
          || !inFlight.tryAcquire(request.content().readableBytes())) {
        // a client pipelining this far ahead, or without budget for the body, is cut off rather
        // than answered out of order or left waiting forever
        context.close();
        return;
      }
      waiting.add(request.retain());
      return;
    }
    serve(context, request);
  }

  /**
   * Serves a request on a worker. The connection goes on being read meanwhile, so a client that
   * hangs up is noticed at once (a streamed search is cancelled through {@link
   * Exchange#onClientGone}) rather than at the next write.
   */
  private void serve(ChannelHandlerContext context, FullHttpRequest request) {
    serving = true;
    Exchange exchange = new Exchange(context, request, () -> served(context), writeTimeoutMillis);
    if (!request.decoderResult().isSuccess()) {
      fail(
          exchange,
          ApiException.badRequest(
              "BAD_REQUEST", "Malformed HTTP request: " + request.decoderResult().cause()));
      return;
    }
    if (exchange.uriProblem() != null) {
      fail(
          exchange,
          ApiException.badRequest(
              "BAD_REQUEST", "Malformed request URI: " + exchange.uriProblem()));
      return;
    }
    long bytes = request.content().readableBytes();
    if (!inFlight.tryAcquire(bytes)) {
      fail(exchange, router.busy(exchange.path()));
      return;
    }
    request.retain();
    try {
      workers.forPath(exchange.path()).execute(() -> run(exchange, request, bytes));
    } catch (RejectedExecutionException e) {
      request.release();
      inFlight.release(bytes);
      fail(exchange, router.busy(exchange.path()));
    }
  }

  /** The response of a kept-alive connection was written (on its event loop): serve the next. */
  private void served(ChannelHandlerContext context) {
    serving = false;
    FullHttpRequest next = waiting.poll();
    if (next != null) {
      inFlight.release(next.content().readableBytes()); // serve() counts it again
      try {
        serve(context, next);
      } finally {
        next.release();
      }
    } else {
      context.channel().config().setAutoRead(true);
      ConnectionGuard guard = context.pipeline().get(ConnectionGuard.class);
      if (guard != null) {
        guard.idle(context);
      }
      context.read();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext context) throws Exception {
    for (FullHttpRequest held; (held = waiting.poll()) != null; ) {
      inFlight.release(held.content().readableBytes());
      held.release();
    }
    super.channelInactive(context);
  }

  private void run(Exchange exchange, FullHttpRequest request, long bytes) {
    RequestOrigin.set(exchange.remoteAddress(), certificates.user(exchange.channel()).orElse(null));
    try {
      if (certificates.refuses(exchange.path(), exchange.channel())) {
        throw ClientCertificates.required(exchange.path());
      }
      CrossSiteGuard.check(exchange);
      router.route(exchange.method(), exchange.path(), exchange.rawPath()).handle(exchange);
      if (!exchange.responded()) {
        throw new IllegalStateException("route for " + exchange.path() + " sent no response");
      }
      recordRequest(exchange);
    } catch (ApiException e) {
      fail(exchange, e);
    } catch (io.quarry.codecs.wal.WriteAheadLog.RecordTooLarge e) {
      fail(exchange, ApiException.requestTooLarge(e.getMessage())); // any route that stores events
    } catch (java.io.IOException e) {
      if (exchange.clientGone() || e instanceof ClientStoppedReadingException) {
        // not the server's failure: nobody is reading the answer
        LOG.log(Level.FINE, "client of " + exchange.path() + " went away", e);
        recordRequest(exchange);
        exchange.closeConnection();
        return;
      }
      unexpected(exchange, e);
    } catch (Exception | Error e) {
      unexpected(exchange, e);
    } finally {
      RequestOrigin.clear();
      request.release();
      inFlight.release(bytes);
    }
  }

  /** A request failed by the server's fault: logged, answered 500 (or its connection closed). */
  private void unexpected(Exchange exchange, Throwable e) {
    LOG.log(Level.WARNING, "request " + exchange.method() + " " + exchange.path() + " failed", e);
    fail(
        exchange,
        new ApiException(
            HttpResponseStatus.INTERNAL_SERVER_ERROR, "INTERNAL", "Internal error: " + e));
  }

  private void fail(Exchange exchange, ApiException e) {
    if (exchange.responded()) {
      LOG.log(Level.FINE, "error after the response started; closing", e);
      exchange.failedAfterStart(e.status()); // counted as the failure it was, not its 200
      recordRequest(exchange);
      exchange.closeConnection();
      return;
    }
    Map<String, String> headers = new HashMap<>(e.headers());
    if (exchange.header("X-Requested-With") != null) {
      // a script (the search page) asked: a WWW-Authenticate challenge would make the browser pop
      // up its own sign-in dialog instead of letting the page show its form
      headers.remove("WWW-Authenticate");
    }
    if (e.status().code() == 503 || e.status().code() == 429) {
      headers.putIfAbsent("Retry-After", "1");
    }
    e.respond(exchange, headers);
    recordRequest(exchange);
  }

  private void recordRequest(Exchange exchange) {
    metrics.httpRequest(
        router.label(exchange.path(), exchange.rawPath()),
        exchange.method().name(),
        exchange.status());
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
    if (cause instanceof DecoderException
        && cause.getCause() instanceof javax.net.ssl.SSLException) {
      // a failed handshake (an old protocol, an untrusting client): nothing can be answered in HTTP
      LOG.log(Level.FINE, "TLS failure", cause);
      context.close();
      return;
    }
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
