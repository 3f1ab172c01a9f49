package io.quarry.server.http;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpContentDecompressor;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.quarry.server.config.Server;
import io.quarry.server.metrics.ServerMetrics;
import java.io.Closeable;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The Netty server on one address and port. */
public final class HttpServer implements Closeable {
  private final EventLoopGroup acceptors;
  private final EventLoopGroup ioLoops;
  private final WorkerPools workers;
  private final Channel channel;

  private HttpServer(
      EventLoopGroup acceptors, EventLoopGroup ioLoops, WorkerPools workers, Channel channel) {
    this.acceptors = acceptors;
    this.ioLoops = ioLoops;
    this.workers = workers;
    this.channel = channel;
  }

  /** Listens as {@code settings} say (address, limits, timeouts, worker lanes), without TLS. */
  public static HttpServer start(Server settings, Router router, ServerMetrics metrics)
      throws InterruptedException {
    return start(settings, router, metrics, null);
  }

  /**
   * As above, with TLS when {@code tls} is not null: every connection must then begin a TLS
   * handshake (TLS 1.2 or 1.3); plain HTTP is answered with a 400 and closed.
   */
  public static HttpServer start(
      Server settings, Router router, ServerMetrics metrics, SslContext tls)
      throws InterruptedException {
    requireNonNull(router, "router is null");
    ClientCertificates certificates =
        tls == null ? ClientCertificates.NONE : ClientCertificates.of(settings.tls());
    int maxRequestBytes = settings.maxRequestBytes().intValue();
    HttpHandler.InFlightBytes inFlight = new HttpHandler.InFlightBytes(settings.maxInFlightBytes());
    EventLoopGroup acceptors = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    EventLoopGroup ioLoops = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
    WorkerPools workers = new WorkerPools(settings.workerThreads(), settings.ingestWorkerThreads());
    long writeTimeoutMillis = TimeUnit.SECONDS.toMillis(settings.writeTimeoutSeconds());
    AtomicInteger openConnections = new AtomicInteger();
    try {
      ServerBootstrap bootstrap =
          new ServerBootstrap()
              .group(acceptors, ioLoops)
              .channel(NioServerSocketChannel.class)
              .option(ChannelOption.SO_BACKLOG, 1024)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                      ChannelPipeline pipeline = channel.pipeline();
                      pipeline.addLast(
                          "guard",
                          new ConnectionGuard(
                              openConnections,
                              settings.maxConnections(),
                              TimeUnit.SECONDS.toMillis(settings.idleTimeoutSeconds()),
                              TimeUnit.SECONDS.toMillis(settings.requestReadTimeoutSeconds())));
                      if (tls != null) {
                        pipeline.addLast("tls", new PlaintextOnTlsPort(tls));
                      }
                      pipeline.addLast("codec", new HttpServerCodec());
                      pipeline.addLast(
                          "keepAlive", new KeepAliveHeader(settings.idleTimeoutSeconds()));
                      pipeline.addLast("decompressor", new BodyDecompressor());
                      pipeline.addLast(
                          "budget",
                          new BodyBudgetHandler(inFlight, router, maxRequestBytes, certificates));
                      pipeline.addLast("aggregator", new LimitedAggregator(maxRequestBytes));
                      pipeline.addLast(
                          "quarry",
                          new HttpHandler(
                              router,
                              workers,
                              metrics,
                              inFlight,
                              writeTimeoutMillis,
                              certificates));
                    }
                  });
      Channel channel =
          bootstrap.bind(new InetSocketAddress(settings.bind(), settings.port())).sync().channel();
      return new HttpServer(acceptors, ioLoops, workers, channel);
    } catch (RuntimeException | InterruptedException e) {
      acceptors.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      ioLoops.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      workers.shutdownNow();
      throw e;
    }
  }

  /** The port actually bound (differs from the configured one when that was 0). */
  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  public String host() {
    return ((InetSocketAddress) channel.localAddress()).getHostString();
  }

  /**
   * Stops accepting, then stops the event loops and the workers; each step waits a bounded time, so
   * a loop that cannot run any more (its thread died) does not keep the process from exiting.
   */
  @Override
  public void close() {
    channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    ioLoops.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    workers.shutdown(10);
  }

  /** Aggregates request bodies up to the limit and answers larger ones with a JSON 413. */
  private static final class LimitedAggregator extends HttpObjectAggregator {
    private final int maxRequestBytes;

    LimitedAggregator(int maxRequestBytes) {
      // an Expect header it cannot meet is answered 417 and the connection closed: left open, the
      // connection idled until its timeout with the body it announced unread (HttpLayerFuzzTest)
      super(maxRequestBytes, true);
      this.maxRequestBytes = maxRequestBytes;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext context, HttpMessage oversized) {
      // the aggregator discards the rest of the body; the answer must survive it still arriving
      Exchange.sendAndDrain(
          context,
          ApiException.requestTooLarge(
              "The request body exceeds the limit of "
                  + maxRequestBytes
                  + " bytes (server.maxRequestBytes); split it into smaller requests"),
          java.time.Duration.ofSeconds(10));
    }
  }

  /**
   * Netty's request-body decompressor, less {@code Content-Encoding: snappy}: Netty reads snappy's
   * framing format, but Prometheus remote-write (the one sender of snappy bodies) uses the block
   * format, which its route decodes itself ({@code metricindex.PrometheusRemoteWrite}).
   */
  private static final class BodyDecompressor extends HttpContentDecompressor {
    @Override
    protected io.netty.channel.embedded.EmbeddedChannel newContentDecoder(String contentEncoding)
        throws Exception {
      return "snappy".equalsIgnoreCase(contentEncoding)
          ? null
          : super.newContentDecoder(contentEncoding);
    }
  }
}
