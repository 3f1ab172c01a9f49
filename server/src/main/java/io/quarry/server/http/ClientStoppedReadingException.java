package io.quarry.server.http;

import java.io.IOException;

/**
 * A streamed answer's client read nothing for the write timeout and was disconnected: not the
 * server's failure, like a client that hung up, so it is not logged as one.
 */
public final class ClientStoppedReadingException extends IOException {
  public ClientStoppedReadingException(String message) {
    super(message);
  }
}
