package io.quarry.server.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A file open for reading while anything still needs it — the thread cutting it and every request
 * sending a part of it — closed when the last holder lets go.
 */
final class OpenFile {
  private final FileChannel channel;
  private final AtomicInteger holders = new AtomicInteger(1);

  private OpenFile(FileChannel channel) {
    this.channel = channel;
  }

  /** Opens the file, held once by the caller. */
  static OpenFile open(Path file) throws IOException {
    return new OpenFile(FileChannel.open(file, StandardOpenOption.READ));
  }

  FileChannel channel() {
    return channel;
  }

  /** One more holder, which must {@link #release} it. */
  void hold() {
    holders.incrementAndGet();
  }

  void release() throws IOException {
    if (holders.decrementAndGet() == 0) {
      channel.close();
    }
  }
}
