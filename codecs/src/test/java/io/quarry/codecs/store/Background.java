package io.quarry.codecs.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A store call run on its own named thread, what it threw kept for the test to check. */
final class Background {
  /** A store call that may fail. */
  @FunctionalInterface
  interface Call {
    void run() throws IOException;
  }

  private final Thread thread;
  private final List<Throwable> failures = new ArrayList<>();

  private Background(String name, Call call) {
    thread =
        new Thread(
            () -> {
              try {
                call.run();
              } catch (IOException | RuntimeException e) {
                synchronized (failures) {
                  failures.add(e);
                }
              }
            },
            name);
  }

  /** Starts {@code call} on a thread named {@code name}. */
  static Background start(String name, Call call) {
    Background background = new Background(name, call);
    background.thread.start();
    return background;
  }

  /** The state of the call's thread (waiting, ended …). */
  Thread.State state() {
    return thread.getState();
  }

  /** Waits for the call to end; what it threw (nothing when it succeeded). */
  List<Throwable> join() throws InterruptedException {
    thread.join();
    synchronized (failures) {
      return List.copyOf(failures);
    }
  }
}
