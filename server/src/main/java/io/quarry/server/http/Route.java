package io.quarry.server.http;

/** Serves one kind of request. Runs on a worker thread, so it may block. */
@FunctionalInterface
public interface Route {
  void handle(Exchange exchange) throws Exception;
}
