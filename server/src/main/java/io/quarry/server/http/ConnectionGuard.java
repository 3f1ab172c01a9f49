package io.quarry.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The first handler of every connection, bounding what a client can hold without doing anything
 * useful: beyond {@code server.maxConnections} open connections a new one is closed at once; a
 * connection with no request in progress is closed after {@code server.idleTimeoutSeconds} of
 * silence; a request must arrive whole — headers and body — within {@code
 * server.requestReadTimeoutSeconds} of its first byte (slowloris: a request trickled a byte at a
 * time). While a request is being served nothing is timed here: a long search writes nothing for a
 * while and that is fine (writes have their own timeout, {@link Exchange.Stream#write}).
 */
final class ConnectionGuard extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = Logger.getLogger(ConnectionGuard.class.getName());

  private final AtomicInteger open;
  private final int maxConnections;
  private final long idleMillis;
  private final long requestReadMillis;
  private boolean counted; // event-loop state, like the rest
  private boolean reading; // bytes of a request arrived, and the request is not complete yet
  private boolean serving; // a complete request is being served
  private ScheduledFuture<?> timer;

  ConnectionGuard(AtomicInteger open, int maxConnections, long idleMillis, long requestReadMillis) {
    this.open = open;
    this.maxConnections = maxConnections;
    this.idleMillis = idleMillis;
    this.requestReadMillis = requestReadMillis;
  }

  @Override
  public void channelActive(ChannelHandlerContext context) throws Exception {
    if (open.incrementAndGet() > maxConnections) {
      open.decrementAndGet();
      LOG.log(
          Level.WARNING,
          "refusing a connection from {0}: {1} connections are open (server.maxConnections)",
          new Object[] {context.channel().remoteAddress(), maxConnections});
      context.close();
      return;
    }
    counted = true;
    schedule(context, idleMillis, "idle");
    super.channelActive(context);
  }

  @Override
  public void channelInactive(ChannelHandlerContext context) throws Exception {
    cancel();
    if (counted) {
      counted = false;
      open.decrementAndGet();
    }
    super.channelInactive(context);
  }

  @Override
  public void channelRead(ChannelHandlerContext context, Object message) {
    if (!reading && !serving) {
      reading = true;
      schedule(context, requestReadMillis, "slow request");
    }
    context.fireChannelRead(message);
  }

  /** {@link HttpHandler} has the whole request: it is served, untimed. */
  void requestReceived() {
    reading = false;
    serving = true;
    cancel();
  }

  /** {@link HttpHandler} answered and serves nothing else now: the connection is idle. */
  void idle(ChannelHandlerContext context) {
    serving = false;
    if (!reading) {
      schedule(context, idleMillis, "idle");
    }
  }

  private void schedule(ChannelHandlerContext context, long millis, String why) {
    cancel();
    timer =
        context
            .executor()
            .schedule(
                () -> {
                  LOG.log(
                      Level.FINE,
                      "closing {0}: {1} for {2} ms",
                      new Object[] {context.channel().remoteAddress(), why, millis});
                  context.close();
                },
                millis,
                TimeUnit.MILLISECONDS);
  }

  private void cancel() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }
}
