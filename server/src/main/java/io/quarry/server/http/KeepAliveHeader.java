package io.quarry.server.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import java.util.ArrayDeque;

/**
 * Tells a client how long its connection may sit idle between requests: an answer that leaves the
 * connection open says {@code Keep-Alive: timeout=<server.idleTimeoutSeconds>} (with {@code
 * Connection: keep-alive}, without which HTTP/1.0-era readers of the header ignore it), the way
 * browsers and {@code HttpURLConnection} read it, so a client can stop reusing a connection before
 * {@link ConnectionGuard} closes it for idleness — a request written into a connection the server
 * is closing goes whole and gets no answer, which a client cannot safely send again. An answer
 * after which the connection closes (the request asked for that, or the answer says {@code
 * Connection: close}) gets no such header. Answers go in the order of their requests (one request
 * at a time per connection, {@link HttpHandler}); an interim answer ({@code 100 Continue}) is not
 * the request's answer.
 */
final class KeepAliveHeader extends ChannelDuplexHandler {
  private final String value;
  // whether each request read and not yet answered asked to keep its connection (event-loop state)
  private final ArrayDeque<Boolean> keptAlive = new ArrayDeque<>();

  KeepAliveHeader(int idleTimeoutSeconds) {
    this.value = "timeout=" + idleTimeoutSeconds;
  }

  @Override
  public void channelRead(ChannelHandlerContext context, Object message) throws Exception {
    if (message instanceof HttpRequest request) {
      keptAlive.addLast(HttpUtil.isKeepAlive(request));
    }
    super.channelRead(context, message);
  }

  @Override
  public void write(ChannelHandlerContext context, Object message, ChannelPromise promise)
      throws Exception {
    if (message instanceof HttpResponse response
        && response.status().codeClass() != HttpStatusClass.INFORMATIONAL) {
      Boolean asked = keptAlive.pollFirst();
      if (Boolean.TRUE.equals(asked) && HttpUtil.isKeepAlive(response)) {
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        response.headers().set(HttpHeaderNames.KEEP_ALIVE, value);
      }
    }
    super.write(context, message, promise);
  }
}
