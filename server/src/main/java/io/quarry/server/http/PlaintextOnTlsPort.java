package io.quarry.server.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;

/**
 * The TLS step of the pipeline: a connection whose first bytes are a TLS record gets Netty's {@link
 * SslHandler} (named {@code tls}); one that speaks plain HTTP to the TLS port gets a 400 saying to
 * use {@code https://}, and is closed, instead of a reset the client cannot explain.
 */
final class PlaintextOnTlsPort extends OptionalSslHandler {
  static final String MESSAGE =
      "This port serves HTTPS only (server.tls.enabled); use an https:// URL";

  PlaintextOnTlsPort(SslContext context) {
    super(context);
  }

  @Override
  protected String newSslHandlerName() {
    return "tls";
  }

  @Override
  protected String newNonSslHandlerName() {
    return "plaintext-refusal";
  }

  @Override
  protected io.netty.channel.ChannelHandler newNonSslHandler(ChannelHandlerContext context) {
    return new Refusal();
  }

  /** Answers the first plain-text bytes with a 400 and closes; reads nothing more. */
  private static final class Refusal extends ChannelInboundHandlerAdapter {
    private boolean answered;

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
      ReferenceCountUtil.release(message);
      if (answered) {
        return;
      }
      answered = true;
      byte[] body =
          ("{\"error\":{\"code\":\"TLS_REQUIRED\",\"message\":\"" + MESSAGE + "\"}}\n")
              .getBytes(StandardCharsets.UTF_8);
      String head =
          "HTTP/1.1 400 Bad Request\r\n"
              + "content-type: application/json\r\n"
              + "content-length: "
              + body.length
              + "\r\nconnection: close\r\n\r\n";
      context
          .writeAndFlush(Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII), body))
          .addListener(ChannelFutureListener.CLOSE);
    }
  }
}
