package io.quarry.codecs.store;

import java.io.IOException;

/** Work on a bucket's writer or searchers that may fail with an I/O error. */
@FunctionalInterface
interface IOAction {
  void run() throws IOException;
}
