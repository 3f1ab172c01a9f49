package io.quarry.client;

/** A request the server refused or could not serve; carries the status and the server's message. */
public class QuarryClientException extends RuntimeException {
  private final int status;
  private final String body;

  public QuarryClientException(int status, String message, String body) {
    super(message);
    this.status = status;
    this.body = body;
  }

  public QuarryClientException(String message, Throwable cause) {
    super(message, cause);
    this.status = 0;
    this.body = "";
  }

  /** The HTTP status, or 0 when no response arrived. */
  public int status() {
    return status;
  }

  /** The raw response body. */
  public String body() {
    return body;
  }
}
