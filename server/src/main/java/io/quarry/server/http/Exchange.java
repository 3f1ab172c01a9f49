package io.quarry.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One request and its response. A route answers exactly once: with a full response, or by opening a
 * chunked stream it writes to and finishes. Writes of a stream wait while the client's socket is
 * not writable, so a slow reader slows the producer instead of filling server memory.
 */
public final class Exchange {
  static final ObjectMapper JSON = new ObjectMapper();

  private final ChannelHandlerContext context;
  private final FullHttpRequest request;
  private final QueryStringDecoder uri;
  private final String path;
  private final String uriProblem;
  private final long writeTimeoutMillis;
  private final Runnable onComplete;
  private int status;
  private boolean responded;
  private Map<String, List<String>> form;
  private Map<String, String> pathParameters = Map.of();

  Exchange(
      ChannelHandlerContext context,
      FullHttpRequest request,
      Runnable onComplete,
      long writeTimeoutMillis) {
    this.context = context;
    this.writeTimeoutMillis = writeTimeoutMillis;
    this.request = request;
    this.uri = new QueryStringDecoder(request.uri());
    this.onComplete = onComplete;
    String decoded;
    String problem = null;
    try {
      decoded = PercentDecoding.decodePath(uri.rawPath());
      uri.parameters(); // decoded now, so a bad escape in the query is found before any route runs
    } catch (IllegalArgumentException e) {
      decoded = uri.rawPath();
      problem = e.getMessage();
    }
    this.path = decoded;
    this.uriProblem = problem;
  }

  /** Why the request URI's percent-escapes cannot be decoded, or null when they can. */
  String uriProblem() {
    return uriProblem;
  }

  /** The client's address (its socket's remote end). */
  /** The connection the request came on (its TLS session: {@link ClientCertificates}). */
  io.netty.channel.Channel channel() {
    return context.channel();
  }

  java.net.SocketAddress remoteAddress() {
    return context.channel().remoteAddress();
  }

  /** The path as sent, escapes not decoded: what path templates are matched against. */
  String rawPath() {
    return uri.rawPath();
  }

  public HttpMethod method() {
    return request.method();
  }

  /** The path, percent-escapes decoded (the raw path when they cannot be). */
  public String path() {
    return path;
  }

  /** A {@code {name}} segment of the route's path template, or null. */
  public String pathParameter(String name) {
    return pathParameters.get(name);
  }

  void pathParameters(Map<String, String> parameters) {
    this.pathParameters = Map.copyOf(parameters);
  }

  public String header(CharSequence name) {
    return request.headers().get(name);
  }

  /** A query-string parameter, or null. */
  public String queryParameter(String name) {
    List<String> values = uri.parameters().get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /**
   * A parameter from an {@code application/x-www-form-urlencoded} body or, when the body lacks it,
   * from the query string (Splunk's REST API accepts both).
   */
  public String parameter(String name) {
    List<String> values = parameters(name);
    return values.isEmpty() ? null : values.get(0);
  }

  /**
   * Every value of a parameter given several times ({@code roles=a&roles=b}), from the form body
   * or, when the body lacks it, the query string; empty when there is none.
   */
  public List<String> parameters(String name) {
    if (form == null) {
      form = new LinkedHashMap<>();
      String contentType = header(HttpHeaderNames.CONTENT_TYPE);
      if (request.content().isReadable()
          && (contentType == null
              || contentType.startsWith(
                  HttpHeaderValues.APPLICATION_X_WWW_FORM_URLENCODED.toString()))) {
        try {
          form.putAll(
              new QueryStringDecoder(bodyAsString(), StandardCharsets.UTF_8, false).parameters());
        } catch (IllegalArgumentException e) {
          throw ApiException.badRequest(
              "BAD_REQUEST",
              "Malformed form body (application/x-www-form-urlencoded): " + e.getMessage());
        }
      }
    }
    List<String> values = form.get(name);
    if (values != null && !values.isEmpty()) {
      return values;
    }
    List<String> query = uri.parameters().get(name);
    return query == null ? List.of() : query;
  }

  public int bodyLength() {
    return request.content().readableBytes();
  }

  /** The body as a stream; it stays valid until the route returns. */
  public InputStream body() {
    return new ByteBufInputStream(request.content().duplicate());
  }

  /**
   * The body's bytes in an array of the caller's own: always a copy (the request's buffer goes back
   * to Netty's pool when the route returns), so what is made of it may hold ranges of it for as
   * long as it likes (the breaker's events do: {@code Event.ofAscii}). The body arrives as pooled
   * direct buffers, so the copy is the one a heap view needs anyway.
   */
  public byte[] bodyBytes() {
    ByteBuf content = request.content();
    return ByteBufUtil.getBytes(content, content.readerIndex(), content.readableBytes(), true);
  }

  public String bodyAsString() {
    return request.content().toString(StandardCharsets.UTF_8);
  }

  int status() {
    return status;
  }

  /** The status a request whose response had begun is counted with when it failed. */
  void failedAfterStart(HttpResponseStatus status) {
    this.status = status.code();
  }

  boolean responded() {
    return responded;
  }

  public void json(HttpResponseStatus status, Object body) {
    json(status, body, Map.of());
  }

  public void json(HttpResponseStatus status, Object body, Map<String, String> headers) {
    byte[] bytes;
    try {
      bytes = JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render response", e);
    }
    send(status, "application/json", bytes, headers);
  }

  public void text(HttpResponseStatus status, String contentType, String body) {
    send(status, contentType, body.getBytes(StandardCharsets.UTF_8), Map.of());
  }

  public void send(
      HttpResponseStatus status, String contentType, byte[] body, Map<String, String> headers) {
    begin(status);
    FullHttpResponse response =
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
    headers.forEach((name, value) -> response.headers().set(name, value));
    splunkConnectionHeader(response);
    complete(context.writeAndFlush(response));
  }

  /**
   * Splunk's Python SDK sends {@code Connection: Close} but closes its connection, dropping the
   * unread body, unless the answer says {@code Connection: Keep-Alive} (as splunkd's do). Under
   * Splunk's paths the answer says so; the connection still closes after the response when the
   * request asked for that, and the body is on the wire by then.
   */
  private void splunkConnectionHeader(HttpResponse response) {
    String path = path();
    if (path.startsWith("/services/") || path.startsWith("/servicesNS/")) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
    }
  }

  /** Closes the connection, for errors after a streamed response has begun. */
  void closeConnection() {
    context.close();
  }

  /** Answers an error outside of any exchange (the request could not be decoded) and closes. */
  static void sendAndClose(ChannelHandlerContext context, ApiException error) {
    respondWithClose(context, error).addListener(ChannelFutureListener.CLOSE);
  }

  /**
   * Answers a request whose body is still arriving (too large to take) without losing the answer:
   * closing at once with unread bytes in the socket makes TCP reset the connection, and the client
   * may never read the response. Instead the output is shut down after the answer (the client sees
   * it and the end of the stream), the rest of the body is read and discarded, and the connection
   * closes when the client closes it, or after {@code linger} at the latest.
   */
  static void sendAndDrain(
      ChannelHandlerContext context, ApiException error, java.time.Duration linger) {
    respondWithClose(context, error)
        .addListener(
            future -> {
              if (context.channel() instanceof io.netty.channel.socket.DuplexChannel duplex) {
                duplex.shutdownOutput();
                context
                    .executor()
                    .schedule(
                        () -> context.close(),
                        linger.toMillis(),
                        java.util.concurrent.TimeUnit.MILLISECONDS);
              } else {
                context.close();
              }
            });
  }

  private static io.netty.channel.ChannelFuture respondWithClose(
      ChannelHandlerContext context, ApiException error) {
    byte[] bytes;
    try {
      bytes = JSON.writeValueAsBytes(error.body());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render error", e);
    }
    FullHttpResponse response =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1, error.status(), Unpooled.wrappedBuffer(bytes));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    return context.writeAndFlush(response);
  }

  /** Starts a chunked response; the route must {@link Stream#finish()} it. */
  public Stream stream(HttpResponseStatus status, String contentType) {
    begin(status);
    HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    HttpUtil.setTransferEncodingChunked(response, true);
    splunkConnectionHeader(response);
    context.writeAndFlush(response);
    return new Stream();
  }

  private void begin(HttpResponseStatus status) {
    if (responded) {
      throw new IllegalStateException("response already sent");
    }
    responded = true;
    this.status = status.code();
  }

  private void complete(ChannelFuture written) {
    written.addListener(
        (ChannelFutureListener)
            future -> {
              if (HttpUtil.isKeepAlive(request) && future.isSuccess()) {
                onComplete.run();
              } else {
                future.channel().close();
              }
            });
  }

  /** Whether the client's connection is closed. */
  public boolean clientGone() {
    return !context.channel().isActive();
  }

  /** A registration that ends when closed ({@link #onClientGone}). */
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Runs {@code action} (on the connection's event loop) if the client's connection closes before
   * the returned registration is closed, or at once if it is closed already: a search the client
   * stopped waiting for is cancelled even while it has nothing to write yet.
   */
  public Registration onClientGone(Runnable action) {
    ChannelFutureListener listener = future -> action.run();
    context.channel().closeFuture().addListener(listener);
    return () -> context.channel().closeFuture().removeListener(listener);
  }

  /** A chunked response body. */
  public final class Stream {
    private Stream() {}

    /**
     * Writes one chunk, waiting while the client cannot take more — for at most the write timeout:
     * a client that reads nothing for that long is disconnected, so it cannot hold a worker.
     *
     * @throws IOException when the client has gone away or stopped reading
     */
    public void write(byte[] chunk) throws IOException {
      if (!context.channel().isActive()) {
        throw new IOException("client closed the connection");
      }
      ChannelFuture future =
          context.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(chunk)));
      if (!context.channel().isWritable()) {
        if (!future.awaitUninterruptibly(writeTimeoutMillis)) {
          context.channel().close();
          throw new ClientStoppedReadingException(
              "client read nothing for " + writeTimeoutMillis + " ms; disconnected");
        }
        if (!future.isSuccess()) {
          throw new IOException("client closed the connection", future.cause());
        }
      }
    }

    public void finish() {
      complete(context.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT));
    }

    /**
     * Ends a body whose last bytes told the client of an error (the status line, long sent, said
     * 200): the request is counted with {@code status} in the metrics.
     */
    public void finishWithError(HttpResponseStatus status) {
      Exchange.this.status = status.code();
      finish();
    }
  }
}
