/**
 * TLS on the HTTP port: the server's {@link io.netty.handler.ssl.SslContext} from PEM files ({@link
 * io.quarry.server.tls.ServerTls}), and the self-signed certificate authority and certificate made
 * on first start when TLS is on and no certificate is configured ({@link
 * io.quarry.server.tls.GeneratedCertificate}).
 */
package io.quarry.server.tls;
